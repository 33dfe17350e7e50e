import { afterStop, type IdleAdvance } from './idle-phase';

/** The longest keep-alive one request may set: a day, so a forgotten one still lapses. */
export const MAX_KEEP_ALIVE_MINUTES = 1440;

export type KeepAliveMinutes =
  { readonly ok: true; readonly minutes: number } | { readonly ok: false; readonly reason: string };

/** A keep-alive holds while its deadline is still ahead. */
export function keepAliveHolds(keepAliveUntil: number | null, now: number): boolean {
  return keepAliveUntil !== null && keepAliveUntil > now;
}

/**
 * A keep-alive holds off the idle stop only: boot grace (a model that never answers) and the runtime cap
 * (the cost backstop) still fire. A held-off stop restarts the streak as a refused one does, so the pod
 * gets a full idle window after the keep-alive lapses.
 */
export function applyKeepAlive(
  advance: IdleAdvance,
  keepAliveUntil: number | null,
  now: number,
): IdleAdvance {
  if (advance.stop !== 'idle' || !keepAliveHolds(keepAliveUntil, now)) return advance;
  return { ...advance, stop: null, state: afterStop(advance.state, 'idle', false, now) };
}

/** The `minutes` of a keep-alive request: a JSON number (not a string), above 0 and at most a day; decimals allowed. */
export function parseKeepAliveMinutes(value: unknown): KeepAliveMinutes {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_KEEP_ALIVE_MINUTES) {
    return { ok: true, minutes: value };
  }
  return {
    ok: false,
    reason: `minutes must be a number greater than 0 and at most ${MAX_KEEP_ALIVE_MINUTES}`,
  };
}
