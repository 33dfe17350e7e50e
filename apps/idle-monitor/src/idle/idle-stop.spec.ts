import { INITIAL_IDLE_STATE, type IdleState, type ListedPod, type StopReason } from '@podwarden/policies';
import type { PodStopOutcome } from '@podwarden/platform';
import { LEVEL, captureLogs, testConfig } from '@podwarden/testing';
import { applyIdleStop, type IdleStopRequest } from './idle-stop';

const POD = testConfig().pods[0];
const NOW = Date.parse('2026-12-01T12:00:00Z');
const LISTED: ListedPod[] = [
  {
    id: 'p1',
    name: 'podwarden-p1',
    status: 'RUNNING',
    volumeIds: ['vol-1'],
    costPerHr: 0.5,
    gpuId: 'L40S',
    createdAt: null,
  },
];

/** A Ready volume some way into its streaks: each reason's restart shows in exactly one field. */
const STATE: IdleState = {
  phase: 'Ready',
  idleStreak: 7,
  bootingTicks: 3,
  upSince: NOW - 3_600_000,
  bootStartedAt: NOW - 3_700_000,
  readySince: NOW - 3_600_000,
  lastTickAt: NOW - 60_000,
};

/** A stop service that refuses the pods in `refuse` and records each call. */
function setup(options: { dryRun?: boolean; refuse?: string[]; answer?: PodStopOutcome[] } = {}) {
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
        options.answer ??
          podIds.map((podId) => ({
            podId,
            ok: !(options.refuse ?? []).includes(podId),
            httpStatus: 200,
            called: true,
          })),
      );
    },
  };
  return { deps: { stops, logger: logs.logger, dryRun: options.dryRun ?? false }, logs, calls };
}

function request(fields: Partial<IdleStopRequest> = {}): IdleStopRequest {
  return {
    pod: POD,
    reason: 'idle',
    perPod: [
      { podId: 'p1', signal: 'Idle' },
      { podId: 'down', signal: 'NotRunning' },
      { podId: 'blind', signal: 'Unknown' },
      { podId: 'p2', signal: 'Booting' },
    ],
    seenUp: ['p1', 'blind'],
    signal: 'Idle',
    listed: LISTED,
    podsOnVolume: ['p1', 'down', 'blind', 'p2'],
    state: STATE,
    baselines: { p1: 40, p2: 9, blind: 5, gone: 1 },
    now: NOW,
    ...fields,
  };
}

describe('applyIdleStop', () => {
  it('stops the pods read up this tick with the reason as trigger; accepted: a fresh state, their baselines dropped', async () => {
    const { deps, logs, calls } = setup();
    const result = await applyIdleStop(deps, request());
    expect(calls).toEqual([{ podIds: ['p1', 'p2'], trigger: 'idle', listed: LISTED }]);
    expect(result).toEqual({
      state: INITIAL_IDLE_STATE,
      // The stopped processes' counters restart at zero; an unstopped pod keeps its own, one off the volume is pruned.
      baselines: { blind: 5 },
      stopAccepted: true,
      targets: ['p1', 'p2'],
    });
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.info,
        pod: POD.name,
        targets: ['p1', 'p2'],
        reason: 'idle',
        signal: 'Idle',
        msg: 'stopping p1, p2 (idle)',
      }),
    ]);
  });

  it("the runtime cap stops the pods seen up (a blind tick's last seen up included), not those read up", async () => {
    const { deps, logs, calls } = setup();
    const result = await applyIdleStop(deps, request({ reason: 'runtime-cap', signal: 'Unknown' }));
    expect(calls).toEqual([{ podIds: ['p1', 'blind'], trigger: 'runtime-cap', listed: LISTED }]);
    expect(result.targets).toEqual(['p1', 'blind']);
    expect(result.baselines).toEqual({ p2: 9 });
    expect(logs.messages('info')).toEqual(['stopping p1, blind (runtime-cap)']);
  });

  it('a stop refused for one of two pods is refused as a whole; only the stopped pod loses its baseline', async () => {
    const { deps } = setup({ refuse: ['p2'] });
    const result = await applyIdleStop(deps, request());
    expect(result).toEqual({
      state: { ...STATE, idleStreak: 0 },
      baselines: { p2: 9, blind: 5 },
      stopAccepted: false,
      targets: ['p1', 'p2'],
    });
  });

  it('no outcome at all is not an accepted stop', async () => {
    const { deps } = setup({ answer: [] });
    const result = await applyIdleStop(deps, request());
    expect(result.stopAccepted).toBe(false);
    expect(result.state).toEqual({ ...STATE, idleStreak: 0 });
  });

  // Refused: the window that fired restarts, so the next try is a window later.
  it.each<[StopReason, Partial<IdleState>]>([
    ['idle', { idleStreak: 0 }],
    ['boot-grace', { bootingTicks: 0 }],
    ['restart-loop', { bootingTicks: 0 }],
    ['runtime-cap', {}],
  ])('a refused stop (%s) restarts only its own window', async (reason, changed) => {
    const { deps, calls } = setup({ refuse: ['p1', 'p2', 'blind'] });
    const result = await applyIdleStop(deps, request({ reason }));
    expect(calls.map((c) => c.trigger)).toEqual([reason]);
    expect(result.state).toEqual({ ...STATE, ...changed });
    expect(result.stopAccepted).toBe(false);
    expect(result.baselines).toEqual({ p1: 40, p2: 9, blind: 5 });
  });

  it.each<[StopReason, Partial<IdleState>, string[]]>([
    ['idle', { idleStreak: 0 }, ['p1', 'p2']],
    ['boot-grace', { bootingTicks: 0 }, ['p1', 'p2']],
    ['restart-loop', { bootingTicks: 0 }, ['p1', 'p2']],
    // The cap's clock restarts too, or the line would repeat every tick.
    ['runtime-cap', { upSince: NOW }, ['p1', 'blind']],
  ])(
    'in dry run (%s): one "would stop" Warning per target, nothing sent, the window restarted',
    async (reason, changed, targets) => {
      const { deps, logs, calls } = setup({ dryRun: true });
      const before = request({ reason });
      const result = await applyIdleStop(deps, before);
      expect(calls).toEqual([]);
      expect(result).toEqual({
        state: { ...STATE, ...changed },
        baselines: before.baselines,
        stopAccepted: null,
        targets,
      });
      expect(result.baselines).toBe(before.baselines);
      expect(logs.lines).toEqual(
        targets.map((podId) =>
          expect.objectContaining({
            level: LEVEL.warn,
            pod: POD.name,
            podId,
            reason,
            dryRun: true,
            msg: `would stop ${podId} (${reason})`,
          }),
        ),
      );
    },
  );
});
