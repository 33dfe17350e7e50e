import type { IdlePhase, IdleState } from './idle-phase';
import type { DownReason } from './down-reason';

/** The phase as the event stream names it. */
export type EventPhase = 'down' | 'booting' | 'ready';

export type IdleEvent =
  | {
      readonly type: 'phase';
      readonly data: {
        readonly phase: EventPhase;
        readonly from: EventPhase;
        readonly readySince: string | null;
        /** The guard or operator whose stop took the pod down, when one did. */
        readonly stopReason: DownReason | null;
      };
    }
  | {
      readonly type: 'idle-streak';
      readonly data: { readonly idleStreak: number; readonly requiredIdleStreak: number };
    };

const EVENT_PHASE: Record<IdlePhase, EventPhase> = { Down: 'down', Booting: 'booting', Ready: 'ready' };

/**
 * What one tick's transition is worth telling an operator: a phase edge, and
 * every change of the idle streak while ready (a reset to 0 means "busy
 * again"). A tick that changed neither says nothing, so a quiet pod is quiet.
 */
export function idleEventsOf(
  before: IdleState,
  after: IdleState,
  requiredIdleStreak: number,
  stopReason: DownReason | null,
): IdleEvent[] {
  const events: IdleEvent[] = [];
  if (before.phase !== after.phase) {
    events.push({
      type: 'phase',
      data: {
        phase: EVENT_PHASE[after.phase],
        from: EVENT_PHASE[before.phase],
        readySince: after.readySince === null ? null : new Date(after.readySince).toISOString(),
        stopReason: after.phase === 'Down' ? stopReason : null,
      },
    });
  }
  const streakMoved = after.idleStreak !== (before.phase === 'Ready' ? before.idleStreak : 0);
  if (after.phase === 'Ready' && streakMoved) {
    events.push({ type: 'idle-streak', data: { idleStreak: after.idleStreak, requiredIdleStreak } });
  }
  return events;
}
