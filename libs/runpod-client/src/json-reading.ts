/** Tolerant readers for JSON whose shape we do not control: a wrong type reads as absent. */

export type JsonParse = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringField(record: Record<string, unknown>, key: string): string | null {
  const value = record[key];
  return typeof value === 'string' ? value : null;
}

/** A string with something in it; blank ids are as good as none. */
export function nonBlankStringField(record: Record<string, unknown>, key: string): string | null {
  const value = stringField(record, key);
  return value !== null && value.trim() !== '' ? value : null;
}

export function finiteNumberField(record: Record<string, unknown>, key: string): number | null {
  const value = record[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function recordField(record: Record<string, unknown>, key: string): Record<string, unknown> | null {
  const value = record[key];
  return isRecord(value) ? value : null;
}

export function arrayField(record: Record<string, unknown>, key: string): readonly unknown[] | null {
  const value = record[key];
  return Array.isArray(value) ? value : null;
}

/** An object with a non-blank `id`, or null: an entry without one can be neither observed nor acted on. */
export function identifiedRecord(value: unknown): { record: Record<string, unknown>; id: string } | null {
  if (!isRecord(value)) {
    return null;
  }
  const id = nonBlankStringField(value, 'id');
  return id === null ? null : { record: value, id };
}

/** RunPod answers a bare array; `{ [key]: [...] }` is tolerated. */
export function bareOrWrappedArray(body: unknown, key: string): readonly unknown[] | null {
  if (Array.isArray(body)) {
    return body;
  }
  return isRecord(body) ? arrayField(body, key) : null;
}

/** The `id` of a nested object (`gpu.id`), null when either is missing. */
export function nestedId(record: Record<string, unknown>, key: string): string | null {
  const nested = recordField(record, key);
  return nested === null ? null : nonBlankStringField(nested, 'id');
}
