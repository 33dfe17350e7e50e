/** The instant every test wake happens at. */
export const FIXED_NOW = '2026-11-30T10:15:00.000Z';

/** A clock that always reads the same instant (a fresh Date each call, so nobody can mutate it for others). */
export function fixedClock(iso: string = FIXED_NOW): () => Date {
  const ms = Date.parse(iso);
  return () => new Date(ms);
}
