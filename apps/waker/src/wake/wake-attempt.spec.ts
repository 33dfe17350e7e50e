import { MAX_WAKE_RUNS } from '@podwarden/policies';
import { FenceLostError, PREWAKE_REQUESTER, type WakeJobResult } from '@podwarden/platform';
import type { FakeRunPod } from '@podwarden/testing';
import { RecordedEvents, actionAccepted, captureLogs, found, volumeWith } from '@podwarden/testing';
import { FIXED_NOW, fixedClock } from './testing/fixed-clock';
import { newWakeDependencies } from './testing/new-wake-run';
import { InstantSleep } from './testing/instant-sleep';
import { MemoryIntents } from './testing/memory-intents';
import { RecordingActionLog } from './testing/recording-action-log';
import { RecordingWakeHistory } from './testing/recording-wake-history';
import { ScriptedFence } from './testing/scripted-fence';
import { testConfig, testPod } from './testing/test-config';
import { scriptedRunPod } from './testing/wake-run-harness';
import { WakeAttempt } from './wake-attempt';
import { WakeRunAgainError } from './wake-run-again';

/** The progress store: every set and clear kept; a set throws while `failing` is set. */
class RecordingProgress {
  readonly calls: string[] = [];
  failing = false;
  async set(podName: string, progress: { phase: string }): Promise<void> {
    if (this.failing) throw new Error('progress store down');
    this.calls.push(`set ${podName} ${progress.phase}`);
  }
  async clear(podName: string, attemptId: string): Promise<void> {
    this.calls.push(`clear ${podName} ${attemptId}`);
  }
}

/** One attempt wired to recording fakes around the scripted RunPod; every delay is instant. */
function attempt(runpod: FakeRunPod) {
  const config = testConfig();
  const logs = captureLogs();
  const intents = new MemoryIntents();
  const history = new RecordingWakeHistory(runpod);
  const published: WakeJobResult[] = [];
  const progress = new RecordingProgress();
  const events = new RecordedEvents();
  const actions = new RecordingActionLog(runpod, intents);
  const sut = new WakeAttempt({
    ...newWakeDependencies({
      config,
      client: runpod,
      actions,
      intents,
      logger: logs.logger,
      sleep: new InstantSleep().sleep,
      now: fixedClock(),
      events,
    }),
    gate: {
      publishResult: async (result) => {
        published.push(result);
      },
    },
    history,
    progress,
  });
  // By default the job's last run: a throw there is the wake's end, recorded.
  const request = (requestedBy: string | null = 'ops', runsStarted = MAX_WAKE_RUNS) => ({
    pod: testPod(config),
    attemptId: 'job-1',
    requestedBy,
    runsStarted,
  });
  return { sut, logs, history, published, progress, events, actions, request };
}

/** p1 is Exited: the run's first billable call is its start. */
const exitedPod = () =>
  scriptedRunPod()
    .onList(volumeWith(['p1']))
    .onObserve('p1', found('p1', 'Exited'));

describe(WakeAttempt.name, () => {
  it("an operator's stop taking the gate ends the wake as stopped, recorded and published, with no write", async () => {
    const runpod = exitedPod();
    const h = attempt(runpod);
    const fence = new ScriptedFence();
    fence.lose('stopped');

    const result = await h.sut.run(h.request(), undefined, fence);

    const stopped = {
      outcome: 'Failed',
      failureKind: 'provider',
      podId: null,
      gpuId: null,
      pricePerHour: null,
      message: 'stopped by operator; the wake made no RunPod write after the stop',
    } as const;
    expect(result).toEqual({ name: 'qwen', attemptId: 'job-1', ...stopped, proxyUrl: null, joined: false });
    expect(h.published).toEqual([result]);
    expect(runpod.billableCalls).toEqual([]);
    expect(h.history.records.map((r) => r.type)).toEqual(['Requested', 'Completed']);
    expect(h.history.records[1]).toMatchObject({ wakeOutcome: 'Failed', reason: stopped.message });
    expect(h.logs.messages('warn')).toEqual([`wake Failed: ${stopped.message}`]);
  });

  it('a fence lost otherwise is logged and rethrown, and the attempt is left to the run that holds the gate', async () => {
    const runpod = exitedPod();
    const h = attempt(runpod);
    const fence = new ScriptedFence();
    fence.lose('lost');

    await expect(h.sut.run(h.request(), undefined, fence)).rejects.toBeInstanceOf(FenceLostError);

    expect(h.history.records.map((r) => r.type)).toEqual(['Requested']);
    expect(h.published).toEqual([]);
    // Production always has the ledger: the start is reserved (and logged) before the fence is checked.
    expect(h.logs.lines).toEqual([
      expect.objectContaining({ level: 30, msg: 'reserved 12.00 USD of the daily budget' }),
      expect.objectContaining({
        level: 40,
        pod: 'qwen',
        attemptId: 'job-1',
        fenceToken: 7,
        msg: 'wake fenced out: lost the wake gate (lease lapsed or re-taken)',
      }),
    ]);
  });

  it.each<[string, boolean, number, string]>([
    ['a crash of the run is an Error, "wake threw"', false, 50, 'wake threw: '],
    ['a cancelled job is a Warning, in its own words', true, 40, ''],
  ])('%s; recorded as an Exception and rethrown', async (_case, cancelled, level, prefix) => {
    const runpod = scriptedRunPod(); // no list scripted: the first call throws
    const h = attempt(runpod);
    const controller = new AbortController();
    if (cancelled) controller.abort(new Error('wake cancelled: by test'));

    const thrown = await h.sut.run(h.request(), controller.signal).catch((error: unknown) => error);

    expect(thrown).toBeInstanceOf(Error);
    const err = (thrown as Error).message;
    expect(h.logs.lines).toEqual([
      expect.objectContaining({ level, pod: 'qwen', attemptId: 'job-1', err, msg: `${prefix}${err}` }),
    ]);
    expect(h.history.records[1]).toMatchObject({
      type: 'Completed',
      wakeOutcome: 'Exception',
      reason: `${prefix}${err}`,
    });
    expect(h.published).toEqual([expect.objectContaining({ outcome: 'Failed', failureKind: 'provider' })]);
  });

  it.each([1, 2, 3])(
    'a run %p that throws, not cancelled, is thrown back to run again: nothing recorded, published or logged',
    async (runsStarted) => {
      const runpod = scriptedRunPod(); // no list scripted: the first call throws
      const h = attempt(runpod);

      const thrown = await h.sut.run(h.request('ops', runsStarted)).catch((error: unknown) => error);

      expect(thrown).toBeInstanceOf(WakeRunAgainError);
      const again = thrown as WakeRunAgainError;
      expect(again.runsStarted).toBe(runsStarted);
      expect(again.cause).toBeInstanceOf(Error);
      expect(again.message).toBe(`wake run ${runsStarted} threw: ${(again.cause as Error).message}`);
      expect(h.history.records.map((r) => r.type)).toEqual(['Requested']);
      expect(h.published).toEqual([]);
      expect(h.events.of('wake-completed')).toEqual([]);
      expect(h.logs.lines).toEqual([]);
      expect(runpod.billableCalls).toEqual([]);
    },
  );

  it("a cancelled run that throws is the wake's end even on its first run: recorded, not run again", async () => {
    const h = attempt(scriptedRunPod());
    const controller = new AbortController();
    controller.abort(new Error('wake cancelled: by test'));

    const thrown = await h.sut.run(h.request('ops', 1), controller.signal).catch((error: unknown) => error);

    expect(thrown).not.toBeInstanceOf(WakeRunAgainError);
    expect(h.history.records.map((r) => r.type)).toEqual(['Requested', 'Completed']);
    expect(h.history.records[1]).toMatchObject({ wakeOutcome: 'Exception' });
  });

  it.each<[string | null, 'wake' | 'prewake']>([
    ['ops', 'wake'],
    [null, 'wake'],
    [PREWAKE_REQUESTER, 'prewake'],
  ])(
    'requested by %p: its RunPod writes are recorded as %s, and a started pod gets its proxy URL',
    async (by, trigger) => {
      const runpod = exitedPod().onStart(actionAccepted()).onObserve('p1', found('p1', 'Running'));
      const h = attempt(runpod);

      const result = await h.sut.run(h.request(by));

      expect(result).toMatchObject({
        outcome: 'Started',
        podId: 'p1',
        proxyUrl: 'https://p1-8000.proxy.runpod.net',
      });
      expect(h.actions.entries.map((e) => [e.action, e.trigger])).toEqual([['Start', trigger]]);
      expect(h.logs.find('wake Started')).toEqual([
        expect.objectContaining({
          level: 30,
          pod: 'qwen',
          attemptId: 'job-1',
          outcome: 'Started',
          podId: 'p1',
        }),
      ]);
      expect(h.events.of('wake-requested')).toEqual([{ attemptId: 'job-1', requestedBy: by }]);
      expect(h.history.records[0]).toEqual({
        type: 'Requested',
        podName: 'qwen',
        attemptId: 'job-1',
        requestedAt: FIXED_NOW,
        requestedBy: by,
      });
    },
  );

  it('reports progress to the store and the stream; a store that refuses is a Warning, never a failed wake', async () => {
    const runpod = exitedPod().onStart(actionAccepted()).onObserve('p1', found('p1', 'Running'));
    const h = attempt(runpod);
    h.progress.failing = true;

    const result = await h.sut.run(h.request());

    expect(result.outcome).toBe('Started');
    expect(h.events.of('wake-progress')[0]).toEqual({
      attemptId: 'job-1',
      phase: 'lookup',
      message: 'looking up pods on volume vol-ours',
    });
    const warnings = h.logs.find('wake progress not written');
    expect(warnings.length).toBe(h.events.of('wake-progress').length);
    expect(warnings[0]).toMatchObject({ level: 40, pod: 'qwen', err: 'progress store down' });
    expect(h.progress.calls).toEqual(['clear qwen job-1']);
  });
});
