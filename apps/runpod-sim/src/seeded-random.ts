/** Deterministic randomness (mulberry32), so pod ids and shuffled lists repeat for a given seed. */
export type RandomSource = () => number;

export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const POD_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** RunPod pod ids look like `iau67u7tkxw50y`: 14 lower-case letters and digits. */
export function randomPodId(random: RandomSource): string {
  let id = '';
  for (let i = 0; i < 14; i += 1) {
    id += POD_ID_ALPHABET[Math.floor(random() * POD_ID_ALPHABET.length)];
  }
  return id;
}

/** Fisher-Yates over a copy. */
export function shuffled<T>(items: readonly T[], random: RandomSource): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}
