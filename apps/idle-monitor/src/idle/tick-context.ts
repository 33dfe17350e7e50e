import type { IdleRecord, PublishTicket } from '@podwarden/platform';

/** Which tick this is: its job id, when it was scheduled, and the job's cancellation. */
export interface TickContext {
  readonly tickId: string;
  readonly scheduledAt: number | null;
  readonly signal?: AbortSignal;
  /** Where each pod's status snapshot stood before the list (see TickStatusEffects). */
  readonly tickets?: ReadonlyMap<string, PublishTicket | null>;
}

/** The same tick re-run after a stall, or an older tick delivered after newer ones ran: counted or superseded. */
export function alreadyCounted(record: IdleRecord, tick: TickContext): boolean {
  if (record.lastTickId === tick.tickId) return true;
  const lastScheduled = record.lastTickScheduledAt ?? null;
  return tick.scheduledAt !== null && lastScheduled !== null && tick.scheduledAt <= lastScheduled;
}
