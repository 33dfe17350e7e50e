import { z } from 'zod';
import { INITIAL_IDLE_STATE, readErrorClocks, type IdleState } from '@podwarden/policies';
import type { IdleRecord } from './idle-state-store';

const time = z.number().nullable();

/**
 * Each field of the state falls back to where a new pod's starts, as a missing one always did: a torn
 * field restarts its own clock once (the tick saves a whole record again), it never stops a pod early,
 * and the runtime cap restarts at most one tick late rather than never.
 */
const idleStateSchema: z.ZodType<IdleState> = z
  .object({
    phase: z.enum(['Down', 'Booting', 'Ready']).catch(INITIAL_IDLE_STATE.phase),
    idleStreak: z.number().catch(INITIAL_IDLE_STATE.idleStreak),
    bootingTicks: z.number().catch(INITIAL_IDLE_STATE.bootingTicks),
    upSince: time.catch(INITIAL_IDLE_STATE.upSince),
    bootStartedAt: time.catch(INITIAL_IDLE_STATE.bootStartedAt),
    readySince: time.catch(INITIAL_IDLE_STATE.readySince),
    lastTickAt: time.catch(INITIAL_IDLE_STATE.lastTickAt),
  })
  .catch(INITIAL_IDLE_STATE);

const clockBook = z.record(z.string(), z.number());

/**
 * The idle record as the store writes it. Only a record that is not a JSON object is unreadable (it loads
 * as the empty record, as a missing one does); inside one, a field of the wrong type reads as absent. The
 * ERROR clocks stay the policy's own reader (`readErrorClocks`), which drops a torn clock and keeps the rest.
 */
export const idleRecordSchema: z.ZodType<IdleRecord> = z
  .object({
    state: idleStateSchema,
    baselines: clockBook.catch({}),
    updatedAt: time.catch(null),
    lastTickId: z.string().nullable().catch(null),
    lastTickScheduledAt: time.catch(null),
    seenUp: z.array(z.string()).optional().catch(undefined),
    neverRanSince: clockBook.optional().catch(undefined),
    errorSince: z.unknown().optional(),
  })
  .transform(({ seenUp, neverRanSince, errorSince, ...record }): IdleRecord => ({
    ...record,
    ...(seenUp === undefined ? {} : { seenUp }),
    ...(neverRanSince === undefined ? {} : { neverRanSince }),
    ...(errorSince === undefined ? {} : { errorSince: readErrorClocks(errorSince) }),
  }));
