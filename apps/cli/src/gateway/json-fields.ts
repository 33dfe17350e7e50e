/** Small readers for untrusted JSON: each says what it found, never guesses. */

export type JsonRecord = Readonly<Record<string, unknown>>;

export function asRecord(value: unknown): JsonRecord | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonRecord) : null;
}

/** A string, null, or `undefined` when the field is missing or of another type (unreadable). */
export function stringOrNull(record: JsonRecord, key: string): string | null | undefined {
  const value = record[key];
  if (value === null) return null;
  return typeof value === 'string' ? value : undefined;
}

/** An ISO time as epoch ms, null, or `undefined` when missing, mistyped or not a time. */
export function timeOrNull(record: JsonRecord, key: string): number | null | undefined {
  const text = stringOrNull(record, key);
  if (text === null || text === undefined) return text;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
