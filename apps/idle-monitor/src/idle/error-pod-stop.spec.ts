import type { ErrorClock, ErrorClocks, ListedPod } from '@podwarden/policies';
import type { PodStopOutcome } from '@podwarden/platform';
import { LEVEL, captureLogs, testConfig } from '@podwarden/testing';
import { errorPodsDue, stopErrorPods, type ErrorPodStopRequest } from './error-pod-stop';

const POD = testConfig({ RUNPOD_BOOT_GRACE_MINUTES: '10' }).pods[0];
const GRACE_MS = 10 * 60_000;
const NOW = Date.parse('2026-12-01T12:00:00Z');

/** A pod as GET /pods lists it, on the configured volume unless told otherwise. */
function listed(id: string, volumeIds: readonly string[] = [POD.volumeId]): ListedPod {
  return {
    id,
    name: `podwarden-${id}`,
    status: 'ERROR',
    volumeIds,
    costPerHr: 0.5,
    gpuId: 'L40S',
    createdAt: null,
  };
}

function clock(ageMs: number, stoppedAt: number | null = null): ErrorClock {
  return { since: NOW - ageMs, stoppedAt };
}

type Call = {
  verb: 'stop' | 'terminate';
  podIds: readonly string[];
  trigger: string;
  listed: readonly ListedPod[];
};

/** A stop service answering each pod as `answers` says (HTTP 200 by default) and recording every call. */
function setup(
  options: { dryRun?: boolean; stop?: Record<string, number>; terminate?: Record<string, number> } = {},
) {
  const logs = captureLogs();
  const calls: Call[] = [];
  const outcome = (podId: string, httpStatus: number): PodStopOutcome => ({
    podId,
    ok: httpStatus >= 200 && httpStatus < 300,
    httpStatus,
    called: true,
  });
  const stops = {
    stopPods: (
      _pod: unknown,
      podIds: readonly string[],
      trigger: string,
      list: readonly ListedPod[] = [],
    ) => {
      calls.push({ verb: 'stop', podIds, trigger, listed: list });
      return Promise.resolve(podIds.map((podId) => outcome(podId, options.stop?.[podId] ?? 200)));
    },
    terminatePod: (_pod: unknown, podId: string, trigger: string, list: readonly ListedPod[]) => {
      calls.push({ verb: 'terminate', podIds: [podId], trigger, listed: list });
      return Promise.resolve(outcome(podId, options.terminate?.[podId] ?? 200));
    },
  };
  const deps = { stops, logger: logs.logger, dryRun: options.dryRun ?? false };
  return { deps, logs, calls };
}

function request(fields: Partial<ErrorPodStopRequest>): ErrorPodStopRequest {
  return { pod: POD, clocks: {}, alreadyStopped: [], listed: [listed('e1')], now: NOW, ...fields };
}

/** The fields every line of the guard carries for pod e1 in ERROR since `ageMs` ago. */
function fieldsOf(podId: string, ageMs: number) {
  return { pod: POD.name, podId, reason: 'error', inErrorSince: new Date(NOW - ageMs).toISOString() };
}

describe('errorPodsDue', () => {
  it.each<[string, ErrorClocks, number, boolean]>([
    ['no clock', {}, 10, false],
    ['one ms short of the grace', { e1: clock(GRACE_MS - 1) }, 10, false],
    ['exactly the grace', { e1: clock(GRACE_MS) }, 10, true],
    ['past the grace but already stopped', { e1: clock(GRACE_MS + 1, NOW - 1) }, 10, false],
    ['stopped and one ms short of twice the grace', { e1: clock(2 * GRACE_MS - 1, NOW - 1) }, 10, false],
    ['stopped and exactly twice the grace (a terminate)', { e1: clock(2 * GRACE_MS, NOW - 1) }, 10, true],
    ['one young clock beside one due', { young: clock(1), e1: clock(GRACE_MS) }, 10, true],
    // A boot grace of 0 turns off the never-ran guard, not this one: the default 20 minutes apply.
    ['boot grace 0, 19 minutes', { e1: clock(19 * 60_000) }, 0, false],
    ['boot grace 0, 20 minutes', { e1: clock(20 * 60_000) }, 0, true],
  ])('%s', (_name, clocks, bootGraceMinutes, due) => {
    expect(errorPodsDue({ ...POD, bootGraceMinutes }, clocks, NOW)).toBe(due);
  });
});

describe('stopErrorPods', () => {
  it('nothing due: no call, no line, the clocks unchanged (the same object), no pod acted on', async () => {
    const { deps, logs, calls } = setup();
    const clocks = { e1: clock(GRACE_MS - 1) };
    const result = await stopErrorPods(deps, request({ clocks }));
    expect(result).toEqual({ clocks, acted: [] });
    expect(result.clocks).toBe(clocks);
    expect(calls).toEqual([]);
    expect(logs.lines).toEqual([]);
  });

  it("a pod the tick's own stop already covered is left alone; when that is all of them, nothing is done", async () => {
    const { deps, calls } = setup();
    const clocks = { e1: clock(GRACE_MS), e2: clock(GRACE_MS) };
    const some = await stopErrorPods(deps, request({ clocks, alreadyStopped: ['e1'] }));
    expect(calls.map((c) => [c.verb, c.podIds])).toEqual([['stop', ['e2']]]);
    expect(some).toEqual({ clocks: { e1: clocks.e1, e2: clock(GRACE_MS, NOW) }, acted: ['e2'] });
    calls.length = 0;
    const all = await stopErrorPods(deps, request({ clocks, alreadyStopped: ['e1', 'e2'] }));
    expect(all.clocks).toBe(clocks);
    expect(all.acted).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('a pod in ERROR for the grace is stopped with trigger error; an accepted stop keeps the clock with its time', async () => {
    const { deps, logs, calls } = setup();
    const list = [listed('e1'), listed('other')];
    const young = clock(GRACE_MS - 1);
    const result = await stopErrorPods(
      deps,
      request({ clocks: { e1: clock(GRACE_MS), young }, listed: list }),
    );
    expect(calls).toEqual([{ verb: 'stop', podIds: ['e1'], trigger: 'error', listed: list }]);
    expect(result).toEqual({
      clocks: { e1: { since: NOW - GRACE_MS, stoppedAt: NOW }, young },
      acted: ['e1'],
    });
    expect(logs.lines).toEqual(
      [
        {
          ...fieldsOf('e1', GRACE_MS),
          level: LEVEL.warn,
          msg: 'stopping e1: in ERROR longer than the grace (error)',
        },
      ].map((line) => expect.objectContaining(line)),
    );
    expect(logs.lines[0]).not.toHaveProperty('dryRun');
  });

  // What follows a stop RunPod did not take: only a refusal (a 4xx about the request) of a pod listed on
  // the configured volume becomes a terminate at once; otherwise the clock stays and the next tick sees.
  it.each<[string, number, readonly string[], boolean]>([
    ['refused (400) on the volume: terminated at once', 400, [POD.volumeId], true],
    ['refused (422) on the volume: terminated at once', 422, [POD.volumeId], true],
    ['refused (400) but listed on another volume: kept', 400, ['vol-other'], false],
    ['refused (400) but listed on no volume: kept', 400, [], false],
    ['failed (500) on the volume: kept, not a refusal', 500, [POD.volumeId], false],
    ['paced (429) on the volume: kept, not a refusal', 429, [POD.volumeId], false],
    ['not found (404) on the volume: kept, not a refusal', 404, [POD.volumeId], false],
  ])('a stop %s', async (_name, httpStatus, volumeIds, terminates) => {
    const { deps, logs, calls } = setup({ stop: { e1: httpStatus } });
    const list = [listed('e1', volumeIds)];
    const started = clock(GRACE_MS);
    const result = await stopErrorPods(deps, request({ clocks: { e1: started }, listed: list }));
    const stopLine = expect.objectContaining({
      ...fieldsOf('e1', GRACE_MS),
      level: LEVEL.warn,
      msg: 'stopping e1: in ERROR longer than the grace (error)',
    });
    if (terminates) {
      expect(calls).toEqual([
        { verb: 'stop', podIds: ['e1'], trigger: 'error', listed: list },
        { verb: 'terminate', podIds: ['e1'], trigger: 'error', listed: list },
      ]);
      // The terminate was accepted: the clock is dropped.
      expect(result).toEqual({ clocks: {}, acted: ['e1'] });
      expect(logs.lines).toEqual([
        stopLine,
        expect.objectContaining({
          ...fieldsOf('e1', GRACE_MS),
          level: LEVEL.warn,
          msg: `stop of e1 refused (HTTP ${httpStatus}); terminating it (error)`,
        }),
      ]);
    } else {
      expect(calls.map((c) => c.verb)).toEqual(['stop']);
      expect(result).toEqual({ clocks: { e1: started }, acted: ['e1'] });
      expect(logs.lines).toEqual([stopLine]);
    }
  });

  it('a refused stop whose terminate is refused too keeps the clock as it was (no stop time), to try again', async () => {
    const { deps, calls } = setup({ stop: { e1: 400 }, terminate: { e1: 500 } });
    const started = clock(GRACE_MS + 5);
    const result = await stopErrorPods(deps, request({ clocks: { e1: started } }));
    expect(calls.map((c) => c.verb)).toEqual(['stop', 'terminate']);
    expect(result).toEqual({ clocks: { e1: started }, acted: ['e1'] });
  });

  it('a pod still in ERROR twice the grace after its clock started is terminated; accepted drops the clock', async () => {
    const { deps, logs, calls } = setup();
    const list = [listed('e1')];
    const result = await stopErrorPods(
      deps,
      request({ clocks: { e1: clock(2 * GRACE_MS, NOW - GRACE_MS) }, listed: list }),
    );
    expect(calls).toEqual([{ verb: 'terminate', podIds: ['e1'], trigger: 'error', listed: list }]);
    expect(result).toEqual({ clocks: {}, acted: ['e1'] });
    expect(logs.lines).toEqual([
      expect.objectContaining({
        ...fieldsOf('e1', 2 * GRACE_MS),
        level: LEVEL.error,
        msg: 'terminating e1: still in ERROR a grace after it was due a stop (error)',
      }),
    ]);
  });

  it('a refused terminate keeps the clock unchanged, so the next tick tries again', async () => {
    const { deps } = setup({ terminate: { e1: 500 } });
    const due = clock(2 * GRACE_MS, NOW - GRACE_MS);
    await expect(stopErrorPods(deps, request({ clocks: { e1: due } }))).resolves.toEqual({
      clocks: { e1: due },
      acted: ['e1'],
    });
  });

  it.each<[string, ListedPod[]]>([
    ['listed on another volume', [listed('e1', ['vol-other'])]],
    ['not listed at all', [listed('someone-else')]],
  ])('a terminate due for a pod %s is not sent: one Error line, the clock kept', async (_name, list) => {
    const { deps, logs, calls } = setup();
    const due = clock(2 * GRACE_MS, null);
    const result = await stopErrorPods(deps, request({ clocks: { e1: due }, listed: list }));
    expect(calls).toEqual([]);
    expect(result).toEqual({ clocks: { e1: due }, acted: ['e1'] });
    expect(logs.lines).toEqual([
      expect.objectContaining({
        ...fieldsOf('e1', 2 * GRACE_MS),
        level: LEVEL.error,
        msg: `not terminating e1: the list does not show it on ${POD.volumeId}`,
      }),
    ]);
  });

  it('several pods: each is judged on its own clock, in order, and each acted on is named', async () => {
    const { deps, calls } = setup();
    const young = clock(1);
    const clocks = { s: clock(GRACE_MS), young, t: clock(2 * GRACE_MS, NOW - GRACE_MS) };
    const list = [listed('s'), listed('young'), listed('t')];
    const result = await stopErrorPods(deps, request({ clocks, listed: list }));
    expect(calls.map((c) => `${c.verb} ${c.podIds.join(',')}`)).toEqual(['stop s', 'terminate t']);
    expect(result).toEqual({ clocks: { s: clock(GRACE_MS, NOW), young }, acted: ['s', 't'] });
  });

  it('in dry run: one "would" Warning per pod, nothing sent, each clock restarted now so the line comes once per grace', async () => {
    const { deps, logs, calls } = setup({ dryRun: true });
    const clocks = { s: clock(GRACE_MS), t: clock(2 * GRACE_MS, NOW - GRACE_MS), young: clock(1) };
    // The dry run says it even of a pod the list does not show on the volume: nothing is sent either way.
    const result = await stopErrorPods(deps, request({ clocks, listed: [] }));
    expect(calls).toEqual([]);
    expect(result).toEqual({
      clocks: { s: { since: NOW, stoppedAt: null }, t: { since: NOW, stoppedAt: null }, young: clocks.young },
      acted: ['s', 't'],
    });
    expect(logs.lines).toEqual([
      expect.objectContaining({
        ...fieldsOf('s', GRACE_MS),
        level: LEVEL.warn,
        dryRun: true,
        msg: 'would stop s (error)',
      }),
      expect.objectContaining({
        ...fieldsOf('t', 2 * GRACE_MS),
        level: LEVEL.warn,
        dryRun: true,
        msg: 'would terminate t (error)',
      }),
    ]);
  });
});
