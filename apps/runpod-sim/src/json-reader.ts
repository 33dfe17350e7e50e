/**
 * Reading untyped JSON (request bodies, scenario files) into typed values.
 * Every failure names the path of the offending field, so a bad scenario or a
 * bad request is answered with one line that says exactly what is wrong.
 */
export type JsonRecord = Record<string, unknown>;

export class JsonShapeError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

export interface NumberBounds {
  readonly min?: number;
  readonly max?: number;
  readonly integer?: boolean;
}

export type ShapeResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asRecord(value: unknown, path: string): JsonRecord {
  if (!isRecord(value)) throw new JsonShapeError(path, 'expected an object');
  return value;
}

export function asArray(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new JsonShapeError(path, 'expected an array');
  return value;
}

export function asString(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new JsonShapeError(path, 'expected a non-empty string');
  }
  return value;
}

export function asNumber(value: unknown, path: string, bounds: NumberBounds = {}): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new JsonShapeError(path, 'expected a finite number');
  }
  if (bounds.integer === true && !Number.isInteger(value)) {
    throw new JsonShapeError(path, 'expected an integer');
  }
  if (bounds.min !== undefined && value < bounds.min) {
    throw new JsonShapeError(path, `expected a number >= ${bounds.min}`);
  }
  if (bounds.max !== undefined && value > bounds.max) {
    throw new JsonShapeError(path, `expected a number <= ${bounds.max}`);
  }
  return value;
}

export function asNullableNumber(value: unknown, path: string, bounds: NumberBounds = {}): number | null {
  return value === null ? null : asNumber(value, path, bounds);
}

export function asBoolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') throw new JsonShapeError(path, 'expected true or false');
  return value;
}

export function asOneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  const match = allowed.find((candidate) => candidate === value);
  if (match === undefined) throw new JsonShapeError(path, `expected one of ${allowed.join(', ')}`);
  return match;
}

/** Unknown keys are refused, so a typo in a scenario or fault is an error instead of a silent default. */
export function onlyKeys(record: JsonRecord, allowed: readonly string[], path: string): void {
  const unknown = Object.keys(record).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw new JsonShapeError(path, `unknown field(s) ${unknown.join(', ')}; allowed: ${allowed.join(', ')}`);
  }
}

/** Optional field: absent (undefined) yields the fallback, present is read strictly. */
export function optional<T>(value: unknown, fallback: T, read: (present: unknown) => T): T {
  return value === undefined ? fallback : read(value);
}

export function readShape<T>(read: () => T): ShapeResult<T> {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (error instanceof JsonShapeError) return { ok: false, error: error.message };
    throw error;
  }
}
