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
  /** The same writes as podwarden's action log records them, oldest first. */
  readonly actionLog: string[];
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
 * bills, it is the one podwarden shows, and the two logs match one to one.
 */
export async function audit(stack: Stack, since = 0, pod = 'qwen'): Promise<AuditReport> {
  const billing = (await stack.simRequest<Billing>('GET', '/_sim/billing')).body.pods
    .filter((p) => p.open)
    .map((p) => p.podId)
    .sort();
  const status = await stack.api<{ status: string; podId: string | null }>('GET', `/api/pods/${pod}`);
  const history = await stack.api<{ actions: Action[] }>('GET', `/api/pods/${pod}/history?limit=100`);
  const writes = (await simWrites(stack)).map((w) => w.replace(/^POST (\/pods\/[^ ]+)\/action /, 'POST $1 '));
  const actions = history.body.actions.filter((a) => Date.parse(a.at) >= since);
  return {
    billing,
    believedRunning: BILLING_STATUSES.has(status.body.status) ? status.body.podId : null,
    adoptions: actions.filter(isNote).map((a) => a.podId ?? ''),
    simWrites: [...writes].sort(),
    // Only this case's actions: the simulator's call log was cleared when the case began.
    actionLog: actions
      .filter((a) => !isNote(a))
      .map(asWrite)
      .sort(),
  };
}

/** The audit every case must pass: no leaked pod, no unrecorded or phantom write. */
export function expectCleanAudit(report: AuditReport): void {
  expect(report.billing.length).toBeLessThanOrEqual(1);
  expect(report.believedRunning === null ? [] : [report.believedRunning]).toEqual(report.billing);
  expect(report.actionLog).toEqual(report.simWrites);
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
