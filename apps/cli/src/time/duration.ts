export type ParsedDuration =
  { readonly ok: true; readonly ms: number } | { readonly ok: false; readonly reason: string };

const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export const MIN_DURATION_MS = 1_000;
export const MAX_DURATION_MS = 7 * 86_400_000;

// One or more <number><unit> parts, largest first is not required: "90s", "1.5h", "1h30m".
const WHOLE = /^(?:\d+(?:\.\d+)?[smhd])+$/;
const PART = /(\d+(?:\.\d+)?)([smhd])/g;

/**
 * A duration such as `10m`, `90s`, `1h30m` or `2d`. A bare number is refused
 * (seconds or minutes? the reader cannot tell), and so is anything outside
 * 1s..7d: zero or a typo must not turn into "wait forever" or "do not wait".
 */
export function parseDuration(text: string): ParsedDuration {
  const trimmed = text.trim().toLowerCase();
  if (!WHOLE.test(trimmed)) {
    return {
      ok: false,
      reason: `${JSON.stringify(text)} is not a duration: use a number with s, m, h or d (e.g. 90s, 10m, 1h30m)`,
    };
  }
  let ms = 0;
  for (const [, amount, unit] of trimmed.matchAll(PART)) ms += Number(amount) * UNIT_MS[unit];
  if (!Number.isFinite(ms) || ms < MIN_DURATION_MS || ms > MAX_DURATION_MS) {
    return { ok: false, reason: `${JSON.stringify(text)} is out of range: a duration must be from 1s to 7d` };
  }
  return { ok: true, ms: Math.round(ms) };
}

/** A short human form for progress lines: 45s, 3m05s, 1h02m. */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours}h${String(minutes).padStart(2, '0')}m`;
  if (minutes > 0) return `${minutes}m${String(seconds).padStart(2, '0')}s`;
  return `${seconds}s`;
}
