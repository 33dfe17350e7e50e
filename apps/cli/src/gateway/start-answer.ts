import { asRecord, stringOrNull } from './json-fields';

export type StartOutcome = 'AlreadyRunning' | 'Started' | 'Created' | 'Waiting';

/** The 200/202 body of POST …/start, reduced to what a wait needs. */
export interface StartAnswer {
  readonly outcome: StartOutcome;
  readonly attemptId: string;
  readonly podId: string | null;
}

const OUTCOMES: ReadonlySet<string> = new Set(['AlreadyRunning', 'Started', 'Created', 'Waiting']);

/** Null when the body is not a start answer (fail closed: the caller treats it as unreadable). */
export function readStartAnswer(body: unknown): StartAnswer | null {
  const record = asRecord(body);
  if (record === null) return null;
  const podId = stringOrNull(record, 'podId');
  if (
    typeof record.outcome !== 'string' ||
    !OUTCOMES.has(record.outcome) ||
    typeof record.attemptId !== 'string' ||
    podId === undefined
  ) {
    return null;
  }
  return { outcome: record.outcome as StartOutcome, attemptId: record.attemptId, podId };
}
