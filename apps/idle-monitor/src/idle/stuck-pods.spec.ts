import type { ErrorClocks, ListedPod, NeverRanClocks } from '@podwarden/policies';
import type { PodStopOutcome } from '@podwarden/platform';
import { captureLogs, testConfig } from '@podwarden/testing';
import { stopStuckPods, type StuckPodsRequest } from './stuck-pods';

const POD = testConfig({ RUNPOD_BOOT_GRACE_MINUTES: '10' }).pods[0];
const GRACE_MS = 10 * 60_000;
const NOW = Date.parse('2026-12-01T12:00:00Z');
const LISTED: ListedPod[] = [];

/** A stop service that accepts every call and records it as `verb trigger pods`. */
function setup(dryRun = false) {
  const logs = captureLogs();
  const calls: string[] = [];
  const ok = (podId: string): PodStopOutcome => ({ podId, ok: true, httpStatus: 200, called: true });
  const stops = {
    stopPods: (_pod: unknown, podIds: readonly string[], trigger: string) => {
      calls.push(`stop ${trigger} ${podIds.join(',')}`);
      return Promise.resolve(podIds.map(ok));
    },
    terminatePod: (_pod: unknown, podId: string, trigger: string) => {
      calls.push(`terminate ${trigger} ${podId}`);
      return Promise.resolve(ok(podId));
    },
  };
  return { deps: { stops, logger: logs.logger, dryRun }, calls, logs };
}

// Each guard's clock, a whole grace old: both are due this tick.
const ERROR_DUE = { since: NOW - GRACE_MS, stoppedAt: null };
const NEVER_RAN_DUE = NOW - GRACE_MS;

function request(
  errorSince: ErrorClocks,
  neverRanSince: NeverRanClocks,
  phaseStop: StuckPodsRequest['phaseStop'] = { fired: false, targets: [] },
): StuckPodsRequest {
  const ids = [...new Set([...Object.keys(errorSince), ...Object.keys(neverRanSince), 'up'])];
  return {
    pod: POD,
    seen: { perPod: ids.map((podId) => ({ podId, signal: 'Booting' as const })), errorSince, neverRanSince },
    phaseStop,
    listed: LISTED,
    now: NOW,
  };
}

describe('stopStuckPods', () => {
  it('with no stop of its own this tick: the ERROR guard, then the never-ran stop, each on its pods; both clocks answered', async () => {
    const { deps, calls } = setup();
    const result = await stopStuckPods(
      deps,
      request({ e1: ERROR_DUE }, { n1: NEVER_RAN_DUE, young: NOW - 1 }),
    );
    expect(calls).toEqual(['stop error e1', 'stop boot-grace n1']);
    expect(result).toEqual({
      errorSince: { e1: { since: NOW - GRACE_MS, stoppedAt: NOW } },
      neverRanSince: { young: NOW - 1 },
    });
  });

  it('a pod both guards find due is left to the ERROR guard this tick: its never-ran clock is kept', async () => {
    const { deps, calls } = setup();
    const result = await stopStuckPods(deps, request({ both: ERROR_DUE }, { both: NEVER_RAN_DUE }));
    expect(calls).toEqual(['stop error both']);
    expect(result.neverRanSince).toEqual({ both: NEVER_RAN_DUE });
  });

  it('the same in dry run: the ERROR guard said it would act, so the never-ran stop leaves the pod', async () => {
    const { deps, calls, logs } = setup(true);
    await stopStuckPods(deps, request({ both: ERROR_DUE }, { both: NEVER_RAN_DUE }));
    expect(calls).toEqual([]);
    expect(logs.messages('warn')).toEqual(['would stop both (error)']);
  });

  it("the volume's own stop covers its targets for the ERROR guard, and every pod read this tick for the never-ran stop", async () => {
    const { deps, calls } = setup();
    const result = await stopStuckPods(
      deps,
      request(
        { target: ERROR_DUE, other: ERROR_DUE },
        { n1: NEVER_RAN_DUE },
        { fired: true, targets: ['target'] },
      ),
    );
    expect(calls).toEqual(['stop error other']);
    expect(result).toEqual({
      errorSince: { target: ERROR_DUE, other: { since: NOW - GRACE_MS, stoppedAt: NOW } },
      neverRanSince: { n1: NEVER_RAN_DUE },
    });
  });
});
