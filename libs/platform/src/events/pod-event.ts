import { z } from 'zod';
import { readStored } from '../redis/stored-json';

/**
 * What happens to a pod, as GET /api/pods/{name}/events streams it: the type is the SSE `event:`, the data
 * one JSON object with `pod` and `at` (ISO). docs/http-api.md lists every type with its fields.
 */
export const POD_EVENT_TYPES = [
  'wake-requested',
  'wake-progress',
  'wake-completed',
  'phase',
  'idle-streak',
  'stop',
  'keepalive',
  'budget-refused',
  'proxy',
  'billing-mismatch',
  'boot-diagnosis',
  'idle-window',
  'prewake',
] as const;

export type PodEventType = (typeof POD_EVENT_TYPES)[number];

export type PodEventData = Readonly<Record<string, unknown>>;

/** An event's data is one JSON object; its fields are per type (docs/http-api.md) and passed on as they are. */
const eventDataSchema: z.ZodType<PodEventData> = z.record(z.string(), z.unknown());

/** One retained event: `id` is its Redis stream id, also the SSE `id:` a client resumes from. */
export interface PodEvent {
  readonly id: string;
  readonly type: string;
  readonly data: PodEventData;
}

// Per pod: a day of a busy pod's events (a wake is ~10, a tick at most 2), bounded memory.
export const POD_EVENT_RETENTION = 2_000;

/** Stream ids ("ms-seq") in order; a malformed id sorts first so it never hides a real event. */
export function compareStreamIds(a: string, b: string): number {
  const [am, as] = splitId(a);
  const [bm, bs] = splitId(b);
  return am === bm ? Math.sign(as - bs) : Math.sign(am - bm);
}

export function isStreamId(value: string): boolean {
  return /^\d{1,20}-\d{1,20}$/.test(value);
}

function splitId(id: string): [number, number] {
  if (!isStreamId(id)) return [-1, -1];
  const [ms, seq] = id.split('-');
  return [Number(ms), Number(seq)];
}

/** A stream entry's fields (`type`, `data`) as an event; null when it is not one of ours. */
export function eventOfEntry(id: string, fields: readonly string[]): PodEvent | null {
  let type: string | null = null;
  let raw: string | null = null;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'type') type = fields[i + 1];
    else if (fields[i] === 'data') raw = fields[i + 1];
  }
  if (type === null || raw === null) return null;
  const data = readStored(eventDataSchema, raw);
  return data.kind === 'read' ? { id, type, data: data.value } : null;
}
