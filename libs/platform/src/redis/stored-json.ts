import type { z } from 'zod';

/**
 * A record read back from Redis: its value when it is JSON of the schema's shape, else unreadable.
 * Each store decides what unreadable means for money (skipped, thrown, or "not there"); see
 * docs/architecture.md, "Parsing what we do not control".
 */
export type StoredRead<T> = { readonly kind: 'read'; readonly value: T } | { readonly kind: 'unreadable' };

export function readStored<T>(schema: z.ZodType<T>, raw: string): StoredRead<T> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { kind: 'unreadable' };
  }
  const read = schema.safeParse(json);
  return read.success ? { kind: 'read', value: read.data } : { kind: 'unreadable' };
}

/** Thrown by a read whose record must never be taken for "none": the caller's unreadable path decides. */
export class UnreadableRecordError extends Error {
  constructor(what: string) {
    super(`${what} in Redis is unreadable (not JSON of its shape)`);
    this.name = 'UnreadableRecordError';
  }
}

/** The value, or the store's error when unreadable. */
export function readStoredOrThrow<T>(schema: z.ZodType<T>, raw: string, what: string): T {
  const read = readStored(schema, raw);
  if (read.kind === 'unreadable') throw new UnreadableRecordError(what);
  return read.value;
}
