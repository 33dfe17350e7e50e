import { INTERRUPTED_DETAIL } from '@podwarden/platform';
import { simWrites } from '../../support/sim-admin';
import type { Stack } from '../../support/stack';

export interface AuditReport {
  /** Pods the simulator bills right now. */
  readonly billing: string[];
  /** The pod podwarden's GET shows in a billing status (null when it believes none bills). */
  readonly believedRunning: string | null;
  /** Create rows that mark the adoption of a pod a failed-looking or in-doubt create placed: a note on that write, not a write. */
  readonly adoptions: string[];
  /** Billable writes in the simulator's call log, as "POST /pods", "POST /pods/{id}/action stop", "DELETE /pods/{id}". */
  readonly simWrites: string[];
  /** The same writes as podwarden's action log records them (sorted): definite and interrupted rows. */
  readonly actionLog: string[];
  /** Rows of calls interrupted before their answer (a reconcile's): each stands for 0 or 1 write. */
  readonly interrupted: string[];
  /** Simulator writes no row accounts for: billed and unrecorded. */
  readonly unrecorded: string[];
  /** Definite rows no simulator write matches: recorded and never made. */
  readonly phantom: string[];
}

interface Billing {
  readonly pods: Array<{ podId: string; open: boolean }>;
}
interface Action {
  readonly at: string;
  readonly action: string;
  readonly podId: string | null;
  readonly detail: string | null;
}

/** Statuses in which the simulator bills (its billing rule: from create until stopped or terminated). */
const BILLING_STATUSES = new Set(['PROVISIONING', 'STARTING', 'RUNNING', 'ERROR']);
const ADOPTION = 'adopted after a transient create failure';
/**
 * A create answered ambiguously (a timeout) is logged when it answers; a later run that finds the
 * pod it placed adds this row: a note on that same write, like an adoption. (An interrupted
 * create, whose waker died before logging it, is reconciled as "an interrupted create": a write.)
 */
const IN_DOUBT_SETTLED = 'reconciled: a create in doubt placed this pod';
const isNote = (a: Action): boolean => a.detail === ADOPTION || (a.detail ?? '').startsWith(IN_DOUBT_SETTLED);
/**
 * Rows a reconcile writes for a call whose caller died before its answer: whether the call left
 * first is unknowable, so such a row stands for "0 or 1 write" (the waker's Start/Terminate and
 * unplaced Create, the stop path's Stop).
 */
const INTERRUPTED = [INTERRUPTED_DETAIL, 'reconciled from an intent whose caller died'];
const isInterrupted = (a: Action): boolean => INTERRUPTED.some((p) => (a.detail ?? '').startsWith(p));

/**
 * Definite rows against the simulator's writes as multisets: each definite row takes one write
 * (left over: phantom); each write left takes one interrupted row of the same call (left over:
 * unrecorded). Interrupted rows left over are calls that never left.
 */
export function matchWrites(
  definite: readonly string[],
  interrupted: readonly string[],
  writes: readonly string[],
): { unrecorded: string[]; phantom: string[] } {
  const take = (pool: string[], write: string): boolean => {
    const at = pool.indexOf(write);
    if (at >= 0) pool.splice(at, 1);
    return at >= 0;
  };
  const unmatched = [...writes];
  const phantom = definite.filter((row) => !take(unmatched, row));
  const spare = [...interrupted];
  const unrecorded = unmatched.filter((write) => !take(spare, write));
  return { unrecorded: unrecorded.sort(), phantom: phantom.sort() };
}

/** podwarden's action log in the simulator's call-log notation. */
function asWrite(action: Action): string {
  switch (action.action) {
    case 'Create':
      return 'POST /pods';
    case 'Start':
      return `POST /pods/${action.podId} start`;
    case 'Stop':
      return `POST /pods/${action.podId} stop`;
    case 'Terminate':
      return `DELETE /pods/${action.podId}`;
    default:
      return `${action.action} ${action.podId}`;
  }
}

/**
 * The end of every chaos case: what the simulator bills against what
 * podwarden believes, and the simulator's billable writes against
 * podwarden's action log (since `since`, epoch ms). A case passes its audit when at most one pod
 * bills, it is the one podwarden shows, and the two logs match one to one (an interrupted row
 * matching its write or none).
 */
export async function audit(stack: Stack, since = 0, pod = 'qwen'): Promise<AuditReport> {
  const billing = (await stack.simRequest<Billing>('GET', '/_sim/billing')).body.pods
    .filter((p) => p.open)
    .map((p) => p.podId)
    .sort();
  const status = await stack.api<{ status: string; podId: string | null }>('GET', `/api/pods/${pod}`);
  const history = await stack.api<{ actions: Action[] }>('GET', `/api/pods/${pod}/history?limit=100`);
  const writes = (await simWrites(stack)).map((w) => w.replace(/^POST (\/pods\/[^ ]+)\/action /, 'POST $1 '));
  const actions = history.body.actions.filter((a) => Date.parse(a.at) >= since && !isNote(a));
  const definite = actions.filter((a) => !isInterrupted(a)).map(asWrite);
  const interrupted = actions.filter(isInterrupted).map(asWrite).sort();
  const notes = history.body.actions.filter((a) => Date.parse(a.at) >= since && isNote(a));
  return {
    billing,
    believedRunning: BILLING_STATUSES.has(status.body.status) ? status.body.podId : null,
    adoptions: notes.map((a) => a.podId ?? ''),
    simWrites: [...writes].sort(),
    // Only this case's actions: the simulator's call log was cleared when the case began.
    actionLog: actions.map(asWrite).sort(),
    interrupted,
    ...matchWrites(definite, interrupted, writes),
  };
}

/**
 * The audit every case must pass: no leaked pod, nothing billed unrecorded, no phantom definite
 * row (an interrupted row may match its write or none, see matchWrites).
 */
export function expectCleanAudit(report: AuditReport): void {
  expect(report.billing.length).toBeLessThanOrEqual(1);
  expect(report.believedRunning === null ? [] : [report.believedRunning]).toEqual(report.billing);
  expect({ unrecorded: report.unrecorded, phantom: report.phantom, report }).toEqual({
    unrecorded: [],
    phantom: [],
    report,
  });
}

/**
 * The audit once the system has settled: a pod placed by a late answer can
 * still be booting when the wake ends, so podwarden's view is re-read until
 * it agrees with the simulator (or the deadline shows it never does).
 */
export async function settledAudit(stack: Stack, since: number, deadlineMs = 60_000): Promise<AuditReport> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const report = await audit(stack, since);
    const agrees =
      (report.believedRunning === null ? [] : [report.believedRunning]).join() === report.billing.join();
    if (agrees || Date.now() > deadline) return report;
    await new Promise((r) => setTimeout(r, 250));
  }
}
