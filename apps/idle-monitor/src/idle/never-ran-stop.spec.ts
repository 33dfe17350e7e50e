import type { ListedPod } from '@podwarden/policies';
import type { PodStopOutcome } from '@podwarden/platform';
import { LEVEL, captureLogs, testConfig } from '@podwarden/testing';
import { stopNeverRan, type NeverRanStopRequest } from './never-ran-stop';

const POD = testConfig({ RUNPOD_BOOT_GRACE_MINUTES: '10' }).pods[0];
const GRACE_MS = 10 * 60_000;
const NOW = Date.parse('2026-12-01T12:00:00Z');
const LISTED: ListedPod[] = [];

/** A stop service that refuses the pods named in `refuse` and records every call. */
function setup(options: { dryRun?: boolean; refuse?: string[] } = {}) {
  const logs = captureLogs();
  const calls: Array<{ podIds: readonly string[]; trigger: string; listed: readonly ListedPod[] }> = [];
  const stops = {
    stopPods: (
      _pod: unknown,
      podIds: readonly string[],
      trigger: string,
      listed: readonly ListedPod[] = [],
    ) => {
      calls.push({ podIds, trigger, listed });
      return Promise.resolve(
        podIds.map((podId): PodStopOutcome => ({
          podId,
          ok: !(options.refuse ?? []).includes(podId),
          httpStatus: 200,
          called: true,
        })),
      );
    },
  };
  const deps = { stops, logger: logs.logger, dryRun: options.dryRun ?? false };
  return { deps, logs, calls };
}

function request(fields: Partial<NeverRanStopRequest>): NeverRanStopRequest {
  return { pod: POD, clocks: {}, alreadyStopped: [], listed: LISTED, now: NOW, ...fields };
}

describe('stopNeverRan', () => {
  it('stops exactly the pods whose clock is a whole boot grace old (the boundary included) and drops their clocks', async () => {
    const { deps, logs, calls } = setup();
    const clocks = { old: NOW - GRACE_MS - 1, exact: NOW - GRACE_MS, young: NOW - GRACE_MS + 1 };
    const kept = await stopNeverRan(deps, request({ clocks }));
    expect(calls).toEqual([{ podIds: ['old', 'exact'], trigger: 'boot-grace', listed: LISTED }]);
    expect(kept).toEqual({ young: NOW - GRACE_MS + 1 });
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.warn,
        pod: POD.name,
        targets: ['old', 'exact'],
        reason: 'boot-grace',
        msg: 'stopping old, exact: no runtime after the boot grace (never ran)',
      }),
    ]);
    expect(logs.lines[0]).not.toHaveProperty('dryRun');
  });

  it('nothing due: no stop, no log, the clocks unchanged (the same object)', async () => {
    const { deps, logs, calls } = setup();
    const clocks = { young: NOW - 60_000 };
    await expect(stopNeverRan(deps, request({ clocks }))).resolves.toBe(clocks);
    expect(calls).toEqual([]);
    expect(logs.lines).toEqual([]);
  });

  it("leaves out pods the tick's own stop already covered; when that is all of them, nothing is done", async () => {
    const { deps, calls } = setup();
    const clocks = { a: NOW - GRACE_MS, b: NOW - GRACE_MS };
    await stopNeverRan(deps, request({ clocks, alreadyStopped: ['a'] }));
    expect(calls.map((c) => c.podIds)).toEqual([['b']]);
    const { deps: deps2, calls: calls2 } = setup();
    await expect(stopNeverRan(deps2, request({ clocks, alreadyStopped: ['a', 'b'] }))).resolves.toBe(clocks);
    expect(calls2).toEqual([]);
  });

  it('keeps the clock of a pod whose stop RunPod refused, so the next tick tries again', async () => {
    const { deps } = setup({ refuse: ['b'] });
    const clocks = { a: NOW - GRACE_MS, b: NOW - GRACE_MS };
    await expect(stopNeverRan(deps, request({ clocks }))).resolves.toEqual({ b: NOW - GRACE_MS });
  });

  it('in dry run: one "would stop" Warning per pod, no stop, the clocks kept', async () => {
    const { deps, logs, calls } = setup({ dryRun: true });
    const clocks = { a: NOW - GRACE_MS, b: NOW - GRACE_MS - 5 };
    await expect(stopNeverRan(deps, request({ clocks }))).resolves.toBe(clocks);
    expect(calls).toEqual([]);
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.warn,
        pod: POD.name,
        targets: ['a', 'b'],
        reason: 'boot-grace',
        dryRun: true,
        msg: 'would stop a (never ran)',
      }),
      expect.objectContaining({ level: LEVEL.warn, dryRun: true, msg: 'would stop b (never ran)' }),
    ]);
  });

  it('a boot grace of 0 disables it', async () => {
    const { deps, calls } = setup();
    const pod = { ...POD, bootGraceMinutes: 0 };
    await stopNeverRan(deps, request({ pod, clocks: { a: NOW - 24 * 3_600_000 } }));
    expect(calls).toEqual([]);
  });
});
