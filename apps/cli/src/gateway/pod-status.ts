import { asRecord, stringOrNull, timeOrNull, type JsonRecord } from './json-fields';

/** The in-flight wake GET reports, reduced to what a wait needs. */
export interface WakeInFlight {
  readonly attemptId: string;
  readonly phase: string;
  readonly message: string;
}

/** The newest completed wake GET reports, reduced to what a wait needs. */
export interface CompletedWake {
  readonly attemptId: string;
  readonly outcome: 'Succeeded' | 'Refused' | 'TimedOut' | 'Failed';
  readonly wakeOutcome: string;
  readonly reason: string;
  readonly podId: string | null;
  readonly requestedAt: number | null;
}

/** GET /api/pods/{name}, the fields a wait decides on; `body` is the whole answer, printed as is. */
export interface PodStatus {
  readonly name: string;
  readonly status: string;
  readonly isRunning: boolean;
  readonly podId: string | null;
  readonly lookup: string;
  readonly readySince: number | null;
  readonly wake: WakeInFlight | null;
  readonly lastWake: CompletedWake | null;
  readonly body: JsonRecord;
}

const LAST_WAKE_OUTCOMES: ReadonlySet<string> = new Set(['Succeeded', 'Refused', 'TimedOut', 'Failed']);

function readWake(value: unknown): WakeInFlight | null | undefined {
  if (value === null) return null;
  const record = asRecord(value);
  if (record === null || typeof record.attemptId !== 'string') return undefined;
  return {
    attemptId: record.attemptId,
    phase: typeof record.phase === 'string' ? record.phase : '',
    message: typeof record.message === 'string' ? record.message : '',
  };
}

function readLastWake(value: unknown): CompletedWake | null | undefined {
  if (value === null) return null;
  const record = asRecord(value);
  if (record === null || typeof record.attemptId !== 'string') return undefined;
  const outcome = record.outcome;
  const podId = stringOrNull(record, 'podId');
  if (typeof outcome !== 'string' || !LAST_WAKE_OUTCOMES.has(outcome) || podId === undefined)
    return undefined;
  return {
    attemptId: record.attemptId,
    outcome: outcome as CompletedWake['outcome'],
    wakeOutcome: typeof record.wakeOutcome === 'string' ? record.wakeOutcome : '',
    reason: typeof record.reason === 'string' ? record.reason : '',
    podId,
    requestedAt: timeOrNull(record, 'requestedAt') ?? null,
  };
}

/**
 * Fail closed: an answer missing a field the wait decides on is unreadable
 * (null), never read as "no pod" or "not ready".
 */
export function readPodStatus(body: unknown): PodStatus | null {
  const record = asRecord(body);
  if (record === null) return null;
  const podId = stringOrNull(record, 'podId');
  const readySince = timeOrNull(record, 'readySince');
  const wake = readWake(record.wake ?? null);
  const lastWake = readLastWake(record.lastWake ?? null);
  if (
    typeof record.name !== 'string' ||
    typeof record.status !== 'string' ||
    typeof record.isRunning !== 'boolean' ||
    typeof record.lookup !== 'string' ||
    podId === undefined ||
    readySince === undefined ||
    wake === undefined ||
    lastWake === undefined
  ) {
    return null;
  }
  return {
    name: record.name,
    status: record.status,
    isRunning: record.isRunning,
    podId,
    lookup: record.lookup,
    readySince,
    wake,
    lastWake,
    body: record,
  };
}
