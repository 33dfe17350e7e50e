export const DEFAULT_HISTORY_LIMIT = 20;
export const MAX_HISTORY_LIMIT = 200;

export type HistoryLimit =
  { readonly ok: true; readonly limit: number } | { readonly ok: false; readonly reason: string };

/** ?limit=N: absent means 20; anything but a whole number in 1..200 is refused (400), never clamped silently. */
export function parseHistoryLimit(raw: unknown): HistoryLimit {
  if (raw === undefined) return { ok: true, limit: DEFAULT_HISTORY_LIMIT };
  if (typeof raw === 'string' && /^\d{1,4}$/.test(raw)) {
    const limit = Number(raw);
    if (limit >= 1 && limit <= MAX_HISTORY_LIMIT) return { ok: true, limit };
  }
  return { ok: false, reason: `limit must be a whole number from 1 to ${MAX_HISTORY_LIMIT}` };
}
