import { z } from 'zod';

/**
 * Zod building blocks for JSON whose shape we do not control. Every field
 * schema ends in `.catch`: a wrong type reads as absent (null or empty), so a
 * hostile answer shapes into a typed result instead of throwing.
 */

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

/** A string with something in it: blank ids are as good as none. Fails (no catch) for entries that need one. */
export const nonBlankId = z.string().refine((value) => value.trim() !== '');

export const text = z.string().nullable().catch(null);
export const nonBlankText = nonBlankId.nullable().catch(null);
/** zod 4's number already refuses NaN and ±Infinity. */
export const finiteNumber = z.number().nullable().catch(null);
export const anyArray = z.array(z.unknown()).nullable().catch(null);
/** An ISO time as epoch ms; null when absent or not a date. */
export const timeMs = z
  .string()
  .transform((value) => Date.parse(value))
  .pipe(z.number())
  .nullable()
  .catch(null);

/** The `id` of a nested object (`gpu.id`), null when either is missing. */
export const nestedId = z
  .object({ id: nonBlankText })
  .transform((nested) => nested.id)
  .catch(null);

/** RunPod answers a bare array; `{ [key]: [...] }` is tolerated. */
export function bareOrWrappedArray(key: string): z.ZodType<unknown[]> {
  const items = z.array(z.unknown());
  return z.union([items, z.object({ [key]: items }).transform((wrapped) => wrapped[key])]);
}

/** The schema's value, or null when the input does not have its shape. */
export function readOrNull<T>(schema: z.ZodType<T>, value: unknown): T | null {
  const read = schema.safeParse(value);
  return read.success ? read.data : null;
}

export function notNull<T>(value: T | null): value is T {
  return value !== null;
}
