import type { ListedPod, PodList } from '../domain/pod';
import { listedAsUp } from './seen-up';

/**
 * A stop RunPod accepted, followed until a tick sees the pod down. Kept per
 * pod id; `confirmedAt` stays set (and the entry kept) so GET can say "confirmed"
 * until the pod runs again.
 */
export interface PendingStop {
  readonly podId: string;
  /** The trigger of the stop being confirmed (re-stops are recorded under it). */
  readonly trigger: string;
  /** When the newest stop of this pod (the first, or the latest re-stop) was sent, epoch ms. */
  readonly stoppedAt: number;
  /** Ticks that saw the pod still up since that stop. */
  readonly ticksWaited: number;
  /** Re-stops sent so far. */
  readonly restops: number;
  readonly confirmedAt: number | null;
}

export interface StopConfirmSettings {
  /** STOP_CONFIRM_TICKS: ticks a pod may still be seen up after a stop before it is stopped again. */
  readonly ticks: number;
  /** STOP_CONFIRM_MAX_RESTOPS: re-stops before the monitor only keeps reporting it. */
  readonly maxRestops: number;
}

/** What one tick saw of a stopped pod: down (EXITED/TERMINATED), gone from the list, up, or nothing (list unreadable). */
export type StopSighting = 'down' | 'gone' | 'up' | 'unseen';

export type StopConfirmVerdict =
  /** Seen down or gone: the stop took effect (also the answer, unchanged, for an entry confirmed earlier). */
  | { readonly kind: 'confirmed'; readonly next: PendingStop }
  /** Still up, within STOP_CONFIRM_TICKS. */
  | { readonly kind: 'waiting'; readonly next: PendingStop }
  /** Still up past the bound with re-stops left: send re-stop number `attempt`. */
  | { readonly kind: 'restop'; readonly attempt: number; readonly next: PendingStop }
  /** Still up past the bound, every re-stop spent: keep reporting it at Error, keep it visible. */
  | { readonly kind: 'unconfirmed'; readonly next: PendingStop }
  /** The list could not be read: nothing learnt, nothing counted. */
  | { readonly kind: 'blind'; readonly next: PendingStop }
  /** A wake started or created a pod on the volume since, or a confirmed pod runs again: forget the entry. */
  | { readonly kind: 'forget'; readonly next: null };

/**
 * What the tick's account-wide list says of one stopped pod. A list read
 * before the stop was sent (`listedAt` ≤ `stoppedAt`: the tick that sent it)
 * says nothing about it.
 */
export function sightingOf(list: PodList, listedAt: number, pending: PendingStop): StopSighting {
  if (list.kind !== 'listed' || listedAt <= pending.stoppedAt) return 'unseen';
  const entry: ListedPod | undefined = list.pods.find((pod) => pod.id === pending.podId);
  if (entry === undefined) return 'gone';
  return listedAsUp(entry) ? 'up' : 'down';
}

/**
 * One tick's verdict on one accepted stop. `restartedAt` is the newest wake
 * Start or Create RunPod accepted on the pod's volume (epoch ms), or null: a
 * pod started after the stop is a new run, never an ignored stop.
 */
export function decideStopConfirmation(
  pending: PendingStop,
  sighting: StopSighting,
  restartedAt: number | null,
  settings: StopConfirmSettings,
  now: number,
): StopConfirmVerdict {
  if (pending.confirmedAt !== null) {
    return sighting === 'up' ? { kind: 'forget', next: null } : { kind: 'confirmed', next: pending };
  }
  if (restartedAt !== null && restartedAt >= pending.stoppedAt) return { kind: 'forget', next: null };
  if (sighting === 'down' || sighting === 'gone') {
    return { kind: 'confirmed', next: { ...pending, confirmedAt: now } };
  }
  if (sighting === 'unseen') return { kind: 'blind', next: pending };
  const ticksWaited = pending.ticksWaited + 1;
  if (ticksWaited < settings.ticks) return { kind: 'waiting', next: { ...pending, ticksWaited } };
  if (pending.restops < settings.maxRestops) {
    const attempt = pending.restops + 1;
    return {
      kind: 'restop',
      attempt,
      next: { ...pending, stoppedAt: now, ticksWaited: 0, restops: attempt },
    };
  }
  return { kind: 'unconfirmed', next: { ...pending, ticksWaited } };
}

/** GET's `stopConfirmed`: null when no stop is followed, false while any is unconfirmed, else true. */
export function stopConfirmedOf(pending: readonly PendingStop[]): boolean | null {
  if (pending.length === 0) return null;
  return pending.every((entry) => entry.confirmedAt !== null);
}

/**
 * The stop route's `stopConfirmed`: true only when no pod needed a call (every
 * pod was already down); a stop just sent is confirmed by a later tick.
 */
export function confirmedAtOnce(
  pods: readonly { readonly called: boolean; readonly ok: boolean }[],
): boolean {
  return pods.every((pod) => !pod.called && pod.ok);
}
