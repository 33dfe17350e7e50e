import { DEFAULTS } from '../config/config-defaults';
import type { ListedPod, PodObservation, VolumeLookup } from '../domain/pod';

/**
 * One pod's ERROR clock: when a tick first saw it in ERROR, and when a stop of
 * it that RunPod accepted was sent (null until then). Epoch ms.
 */
export interface ErrorClock {
  readonly since: number;
  readonly stoppedAt: number | null;
}

/** Per pod id on the volume, kept in the idle record so every replica and a restart carry it on. */
export type ErrorClocks = Readonly<Record<string, ErrorClock>>;

/** What one tick read of a pod, as far as ERROR goes: did /metrics answer, and what did GET /pods/{id} say. */
export interface ErrorReading {
  readonly podId: string;
  readonly served: boolean;
  readonly observation: PodObservation | null;
}

export type ErrorEvidence = 'error' | 'not-error' | 'unknown';

// The list's statuses that positively say "not in ERROR"; anything else tells nothing.
const LISTED_NOT_ERROR = new Set(['PROVISIONING', 'STARTING', 'RUNNING', 'EXITED', 'TERMINATED']);

/**
 * Whether a pod is in ERROR this tick. A model that answered is not; the pod's
 * own read decides when it named a status; otherwise the account-wide list
 * does. A failed read and an unfamiliar status are no evidence either way.
 */
export function errorEvidence(
  reading: ErrorReading | undefined,
  listed: ListedPod | undefined,
): ErrorEvidence {
  if (reading?.served === true) return 'not-error';
  const observation = reading?.observation ?? null;
  if (observation?.kind === 'found' && observation.status !== 'Unknown') {
    return observation.status === 'Error' ? 'error' : 'not-error';
  }
  const status = listed?.status?.toUpperCase() ?? null;
  if (status === 'ERROR') return 'error';
  return status !== null && LISTED_NOT_ERROR.has(status) ? 'not-error' : 'unknown';
}

/**
 * Each pod's ERROR clock after this tick: seen in ERROR starts or keeps it, seen otherwise drops it (a
 * wake may start an ERROR pod again: a new boot), and no evidence, an unreadable list included, keeps it.
 */
export function nextErrorClocks(
  previous: ErrorClocks,
  lookup: VolumeLookup,
  readings: readonly ErrorReading[],
  listed: readonly ListedPod[],
  now: number,
): ErrorClocks {
  if (lookup.kind === 'unreadable') return previous;
  if (lookup.kind === 'not-found') return {};
  const next: Array<[string, ErrorClock]> = [];
  for (const podId of lookup.podIds) {
    const reading = readings.find((r) => r.podId === podId);
    const evidence = errorEvidence(
      reading,
      listed.find((entry) => entry.id === podId),
    );
    const clock = Object.hasOwn(previous, podId) ? previous[podId] : undefined;
    if (evidence === 'error') next.push([podId, clock ?? { since: now, stoppedAt: null }]);
    else if (evidence === 'unknown' && clock !== undefined) next.push([podId, clock]);
  }
  // fromEntries defines own properties, so an id such as "__proto__" stays data.
  return Object.fromEntries(next);
}

/**
 * How long a pod may be seen in ERROR before it is stopped: the boot grace.
 * A boot grace of 0 turns off the never-ready guard (a slow first pull is
 * allowed), but an ERROR pod is not booting and may hold its GPU: the default grace applies.
 */
export function errorGraceMs(bootGraceMinutes: number): number {
  const minutes = bootGraceMinutes > 0 ? bootGraceMinutes : DEFAULTS.RUNPOD_BOOT_GRACE_MINUTES;
  return minutes * 60_000;
}

export type ErrorAction = 'stop' | 'terminate';

export interface DueErrorAction {
  readonly podId: string;
  readonly action: ErrorAction;
}

/**
 * Per pod, what the ERROR guard does this tick: stop a pod in ERROR for the whole grace (once; the stop
 * confirmation follows it up), and terminate one still in ERROR a second grace later, whatever became of
 * the stops (refused, failed, or accepted and not carried out).
 */
export function errorActionsDue(clocks: ErrorClocks, graceMs: number, now: number): DueErrorAction[] {
  const due: DueErrorAction[] = [];
  for (const [podId, clock] of Object.entries(clocks)) {
    const elapsed = now - clock.since;
    if (elapsed >= 2 * graceMs) due.push({ podId, action: 'terminate' });
    else if (elapsed >= graceMs && clock.stoppedAt === null) due.push({ podId, action: 'stop' });
  }
  return due;
}

/**
 * A stop RunPod refused outright: a 4xx about the request, not about our key
 * (401, 403: a terminate would be refused alike), the pod's existence (404),
 * or pacing (408, 429). A 5xx or no answer is not a refusal: it is retried.
 */
export function isStopRefusal(httpStatus: number): boolean {
  if (httpStatus < 400 || httpStatus > 499) return false;
  return ![401, 403, 404, 408, 429].includes(httpStatus);
}

export interface ActionAnswer {
  readonly ok: boolean;
  readonly httpStatus: number;
}

/**
 * After an ERROR stop: accepted keeps the clock with the stop's time (the
 * next tick that sees the pod out of ERROR drops it); refused asks for the
 * terminate now, but only of a pod listed on the configured volume.
 */
export function afterErrorStop(
  clock: ErrorClock,
  answer: ActionAnswer,
  onVolume: boolean,
  now: number,
): { readonly clock: ErrorClock; readonly terminate: boolean } {
  if (answer.ok) return { clock: { ...clock, stoppedAt: now }, terminate: false };
  return { clock, terminate: onVolume && isStopRefusal(answer.httpStatus) };
}

/** After an ERROR terminate: accepted drops the clock; otherwise it stays and the next tick tries again. */
export function afterErrorTerminate(clock: ErrorClock, answer: ActionAnswer): ErrorClock | null {
  return answer.ok ? null : clock;
}

/** Only a pod the tick's own list shows on the configured volume is ever terminated by this guard. */
export function isListedOnVolume(listed: readonly ListedPod[], podId: string, volumeId: string): boolean {
  return listed.some((entry) => entry.id === podId && entry.volumeIds.includes(volumeId));
}

/** The clocks as stored (JSON from Redis): malformed entries are dropped, so a torn record restarts them. */
export function readErrorClocks(raw: unknown): ErrorClocks {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const clocks: Array<[string, ErrorClock]> = [];
  for (const [podId, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value !== 'object' || value === null) continue;
    const { since, stoppedAt } = value as Record<string, unknown>;
    if (!isTime(since) || !(stoppedAt === null || isTime(stoppedAt))) continue;
    clocks.push([podId, { since, stoppedAt }]);
  }
  return Object.fromEntries(clocks);
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
