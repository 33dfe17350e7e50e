import { UnrecoverableError, type Job } from 'bullmq';
import type { LastWakeOutcome, PodConfig } from '@podwarden/policies';
import {
  RedisKeys,
  WakeGate,
  WakeHistory,
  WakeProgressStore,
  parseEntry,
  wakeRecordSchema,
  withinTimeout,
  type WakeJobResult,
  type WakeRecord,
} from '@podwarden/platform';
import {
  OUR_VOLUME,
  captureLogs,
  createRefused,
  emptyVolume,
  found,
  useTestRedis,
  unreadableList,
  volumeWith,
  type CapturedLogs,
  type FakeRunPod,
} from '@podwarden/testing';
import { realSleep, type Sleep } from './sleeper';
import { WakeJobRunner, type WakeJobRunnerDependencies } from './wake-job-runner';
import { WakeRunAgainError } from './wake-run-again';
import { deferred } from './testing/deferred';
import { newWakeJobRunner } from './testing/new-wake-run';
import { FIXED_NOW, fixedClock } from './testing/fixed-clock';
import { L40S, RANKED_CATALOG } from './testing/gpu-catalogs';
import { MemoryIntents } from './testing/memory-intents';
import { InstantSleep } from './testing/instant-sleep';
import { RecordingActionLog } from './testing/recording-action-log';
import { RecordingWakeHistory } from './testing/recording-wake-history';
import { TEST_API_KEY, TEST_POD_NAME, testConfig } from './testing/test-config';
import { scriptedRunPod } from './testing/wake-run-harness';
import { replacingGpulessPod, throwsOnFirstObserve } from './testing/wake-scenarios';

const db = useTestRedis('waker');
const KEYS = new RedisKeys(db.prefix);
const JOIN_POLL_MS = 5;

/** A job as BullMQ hands it over; without `attemptsStarted` its run count is unreadable (never run again). */
function job(id: string, data: unknown, attemptsStarted?: number): Job {
  return { id, data, attemptsStarted } as unknown as Job;
}

interface RunnerHarness {
  readonly runner: WakeJobRunner;
  readonly gate: WakeGate;
  readonly progress: WakeProgressStore;
  readonly actions: RecordingActionLog;
  readonly logs: CapturedLogs;
  /** How many times this runner waited for a wake it joined. */
  joinWaits(): number;
}

/** One waker replica: its own fake RunPod and logs, the real gate, history and progress on the shared Redis. */
function replica(
  runpod: FakeRunPod,
  options: {
    onJoinWait?: (waits: number) => Promise<void> | void;
    gateLeaseMs?: number;
    gate?: WakeGate;
    history?: Pick<WakeHistory, 'requested' | 'completed'>;
    status?: WakeJobRunnerDependencies['status'];
    pod?: Partial<PodConfig>;
  } = {},
): RunnerHarness {
  const config = testConfig();
  config.pods[0] = { ...config.pods[0], ...options.pod };
  const logs = captureLogs();
  const gate = options.gate ?? new WakeGate(db.redis, KEYS);
  const progress = new WakeProgressStore(db.redis, KEYS);
  const intents = new MemoryIntents();
  const actions = new RecordingActionLog(undefined, intents);
  let waits = 0;
  const joinSleep: Sleep = async (ms, signal) => {
    waits += 1;
    await options.onJoinWait?.(waits);
    await realSleep(ms, signal);
  };
  const runner = newWakeJobRunner({
    config,
    client: runpod,
    actions,
    intents,
    logger: logs.logger,
    sleep: new InstantSleep().sleep,
    now: fixedClock(),
    gate,
    history: options.history ?? new WakeHistory(db.redis, KEYS, logs.logger),
    progress,
    gateLeaseMs: options.gateLeaseMs ?? 30_000,
    joinPollMs: JOIN_POLL_MS,
    joinSleep,
    status: options.status,
  });
  return { runner, gate, progress, actions, logs, joinWaits: () => waits };
}

async function historyOf(podName: string): Promise<WakeRecord[]> {
  const rows = await db.redis.xrange(KEYS.wakeHistory(podName), '-', '+');
  return rows.flatMap(([, fields]) => parseEntry<WakeRecord>(fields, wakeRecordSchema));
}

async function errorOf(work: Promise<unknown>): Promise<Error> {
  try {
    await work;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`, { cause: error });
  }
  throw new Error('expected a rejection, but the job resolved');
}

/** A fake whose first observe of p1 blocks until released, to hold a wake open mid-run. */
function blockedInObserve(answer = found('p1', 'Running', 1)) {
  const inside = deferred();
  const release = deferred();
  const runpod = scriptedRunPod()
    .onList(volumeWith(['p1']))
    .onObserve('p1', async () => {
      inside.resolve();
      await release.promise;
      return answer;
    });
  return { runpod, inside, release };
}

describe(WakeJobRunner.name, () => {
  describe('invalid payloads', () => {
    it.each<[string, unknown, RegExp]>([
      ['null', null, /expected an object/],
      ['an array', [{ podName: TEST_POD_NAME }], /expected an object/],
      ['a string', TEST_POD_NAME, /expected an object/],
      ['no podName', { requestedBy: 'chat' }, /podName must be a non-empty string/],
      ['a number podName', { podName: 42 }, /podName must be a non-empty string/],
      ['a blank podName', { podName: '   ' }, /podName must be a non-empty string/],
      [
        'a non-string requestedBy',
        { podName: TEST_POD_NAME, requestedBy: 7 },
        /requestedBy must be a string/,
      ],
      ['an unknown field', { podName: TEST_POD_NAME, force: true }, /property force should not exist/],
      ['an unknown pod name', { podName: 'llama' }, /unknown pod name "llama"/],
    ])(
      '%s fails the job as unrecoverable with a clear reason and ZERO RunPod calls',
      async (_what, data, reason) => {
        const runpod = scriptedRunPod();
        const { runner } = replica(runpod);

        const error = await errorOf(runner.process(job('bad-1', data)));

        expect(error).toBeInstanceOf(UnrecoverableError);
        expect(error.message).toMatch(/^invalid wake payload: /);
        expect(error.message).toMatch(reason);
        expect(runpod.calls).toEqual([]);
        expect(await historyOf(TEST_POD_NAME)).toEqual([]);
        expect(await db.redis.get(KEYS.wakeLock(OUR_VOLUME))).toBeNull();
      },
    );
  });

  describe('a normal run', () => {
    interface Row {
      scenario: string;
      script: () => FakeRunPod;
      wakeOutcome: string;
      outcome: LastWakeOutcome;
      candidatesConsidered: number;
      lastProviderStatus: number | null;
    }
    const rows: Row[] = [
      {
        scenario: 'a Running pod',
        script: () =>
          scriptedRunPod()
            .onList(volumeWith(['p1']))
            .onObserve('p1', found('p1', 'Running', 1)),
        wakeOutcome: 'AlreadyRunning',
        outcome: 'Succeeded',
        candidatesConsidered: 0,
        lastProviderStatus: null,
      },
      {
        scenario: 'an unreadable list',
        script: () => scriptedRunPod().onList(unreadableList()),
        wakeOutcome: 'Failed',
        outcome: 'Refused',
        candidatesConsidered: 0,
        lastProviderStatus: null,
      },
      {
        scenario: 'a pod that never leaves Starting',
        script: () =>
          scriptedRunPod()
            .onList(volumeWith(['p1']))
            .alwaysObserve('p1', found('p1', 'Starting')),
        wakeOutcome: 'Waiting',
        outcome: 'TimedOut',
        candidatesConsidered: 0,
        lastProviderStatus: null,
      },
      {
        scenario: 'a create RunPod aborts with 402',
        script: () =>
          scriptedRunPod()
            .onList(emptyVolume())
            .onCatalog(RANKED_CATALOG)
            .onCreate(createRefused(402, null, 'insufficient balance')),
        wakeOutcome: 'Failed',
        outcome: 'Failed',
        candidatesConsidered: 3,
        lastProviderStatus: 402,
      },
    ];

    it.each(rows)(
      '$scenario: history Requested then Completed ($wakeOutcome → $outcome), result published, progress cleared, gate released',
      async ({ script, wakeOutcome, outcome, candidatesConsidered, lastProviderStatus }) => {
        const runpod = script();
        const sut = replica(runpod);

        const result = await sut.runner.process(
          job('job-1', { podName: TEST_POD_NAME, requestedBy: 'chat' }),
        );

        expect(result).toMatchObject({
          name: TEST_POD_NAME,
          attemptId: 'job-1',
          outcome: wakeOutcome,
          joined: false,
        });
        expect(await historyOf(TEST_POD_NAME)).toEqual([
          {
            type: 'Requested',
            podName: TEST_POD_NAME,
            attemptId: 'job-1',
            requestedAt: FIXED_NOW,
            requestedBy: 'chat',
          },
          {
            type: 'Completed',
            podName: TEST_POD_NAME,
            attemptId: 'job-1',
            requestedAt: FIXED_NOW,
            requestedBy: 'chat',
            completedAt: FIXED_NOW,
            outcome,
            wakeOutcome,
            reason: result.message,
            podId: result.podId,
            gpuId: result.gpuId,
            pricePerHour: result.pricePerHour,
            candidatesConsidered,
            lastProviderStatus,
          },
        ]);
        expect(await sut.gate.readResult('job-1')).toEqual(result);
        expect(await sut.progress.get(TEST_POD_NAME)).toBeNull();
        expect(await sut.gate.holder(OUR_VOLUME)).toBeNull();
        expect(sut.logs.text()).not.toContain(TEST_API_KEY);
      },
    );

    it('writes Requested before RunPod is touched and Completed after the last call', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Running', 1));
      const history = new RecordingWakeHistory(runpod);
      const { runner } = replica(runpod, { history });

      await runner.process(job('job-H', { podName: TEST_POD_NAME }));

      expect(runpod.events).toEqual([
        'history Requested job-H',
        'list',
        'observe p1',
        'history Completed job-H',
      ]);
    });

    it('drops the status snapshot before the Completed record shows, whatever the ending', async () => {
      for (const [attemptId, runpod] of [
        [
          'job-S',
          scriptedRunPod()
            .onList(volumeWith(['p1']))
            .onObserve('p1', found('p1', 'Running', 1)),
        ],
        ['job-F', scriptedRunPod().onList(unreadableList('http 502'))],
      ] as const) {
        const history = new RecordingWakeHistory(runpod);
        const status = {
          begin: () => Promise.resolve(null),
          publish: () => Promise.resolve(),
          invalidate: (podName: string) => Promise.resolve(runpod.note(`status dropped ${podName}`)),
        };
        const { runner } = replica(runpod, { history, status });

        await runner.process(job(attemptId, { podName: TEST_POD_NAME }));

        expect(runpod.events.slice(-2)).toEqual([
          `status dropped ${TEST_POD_NAME}`,
          `history Completed ${attemptId}`,
        ]);
      }
    });

    it('answers with the configured name and the proxy URL of the serving pod, whatever case the payload used', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Running', 1));
      const { runner } = replica(runpod);

      const result = await runner.process(job('job-2', { podName: 'QWEN' }));

      // Exactly the job result's fields: nothing of the history's diagnostics leaks into it.
      expect(result).toStrictEqual<WakeJobResult>({
        name: TEST_POD_NAME,
        attemptId: 'job-2',
        outcome: 'AlreadyRunning',
        failureKind: null,
        podId: 'p1',
        gpuId: null,
        pricePerHour: null,
        proxyUrl: 'https://p1-8000.proxy.runpod.net',
        message: 'pod p1 is already running',
        joined: false,
      });
      expect(await historyOf(TEST_POD_NAME)).toMatchObject([{ requestedBy: null }, { requestedBy: null }]);
    });

    it('logs the ending: Information for a wake that served, Warning for a failed one', async () => {
      const served = replica(
        scriptedRunPod()
          .onList(volumeWith(['p1']))
          .onObserve('p1', found('p1', 'Running', 1)),
      );
      const failed = replica(scriptedRunPod().onList(unreadableList('http 502')));

      await served.runner.process(job('job-ok', { podName: TEST_POD_NAME }));
      await failed.runner.process(job('job-no', { podName: TEST_POD_NAME }));

      expect(served.logs.find('wake AlreadyRunning')).toEqual([
        expect.objectContaining({
          level: 30,
          msg: 'wake AlreadyRunning: pod p1 is already running',
          pod: TEST_POD_NAME,
          attemptId: 'job-ok',
          outcome: 'AlreadyRunning',
          podId: 'p1',
        }),
      ]);
      expect(failed.logs.messages('warn')).toEqual([
        'wake Failed: volume lookup unreadable (http 502); nothing was started or created',
      ]);
    });

    it('an unconfigured client is refused and still recorded, without touching the gate or RunPod', async () => {
      const runpod = scriptedRunPod().unconfigured();
      const sut = replica(runpod);
      const entered = jest.spyOn(sut.gate, 'enter');

      const result = await sut.runner.process(job('job-3', { podName: TEST_POD_NAME }));

      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused', proxyUrl: null });
      expect(runpod.calls).toEqual([]);
      expect(entered).not.toHaveBeenCalled();
      expect(await historyOf(TEST_POD_NAME)).toMatchObject([
        { type: 'Requested' },
        { type: 'Completed', outcome: 'Refused', wakeOutcome: 'Failed' },
      ]);
    });

    it.each(['', '  '])(
      'a pod with a blank volume id (%p) is refused and still recorded, without touching the gate or RunPod',
      async (volumeId) => {
        const runpod = scriptedRunPod();
        const sut = replica(runpod, { pod: { volumeId } });
        const entered = jest.spyOn(sut.gate, 'enter');

        const result = await sut.runner.process(job('job-V', { podName: TEST_POD_NAME }));

        expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused' });
        expect(runpod.calls).toEqual([]);
        expect(entered).not.toHaveBeenCalled();
        expect((await historyOf(TEST_POD_NAME)).map((r) => r.type)).toEqual(['Requested', 'Completed']);
      },
    );

    it('a progress write Redis refuses is logged and never fails the wake', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Running', 1));
      const sut = replica(runpod);
      jest
        .spyOn(sut.progress, 'set')
        .mockRejectedValue(new Error('READONLY You cannot write against a replica'));

      const result = await sut.runner.process(job('job-P', { podName: TEST_POD_NAME }));

      expect(result).toMatchObject({ outcome: 'AlreadyRunning' });
      expect(sut.logs.find('wake progress not written')).toEqual([
        expect.objectContaining({
          level: 40,
          pod: TEST_POD_NAME,
          err: 'READONLY You cannot write against a replica',
        }),
        expect.objectContaining({ level: 40 }),
      ]);
    });

    it('progress is visible while the wake is blocked inside observe, and gone once it finishes', async () => {
      const { runpod, inside, release } = blockedInObserve();
      const sut = replica(runpod);

      const running = sut.runner.process(job('job-4', { podName: TEST_POD_NAME }));
      await inside.promise;

      expect(await sut.progress.get(TEST_POD_NAME)).toEqual({
        attemptId: 'job-4',
        phase: 'observe',
        message: expect.stringMatching(/^round 1\//),
        updatedAt: FIXED_NOW,
      });
      expect(await sut.gate.holder(OUR_VOLUME)).toBe('job-4');
      expect((await historyOf(TEST_POD_NAME)).map((r) => r.type)).toEqual(['Requested']);

      release.resolve();
      await running;

      expect(await sut.progress.get(TEST_POD_NAME)).toBeNull();
    });

    it.each([
      ['prewake', 'prewake'],
      ['chat', 'wake'],
    ])('a job requested by %s records its RunPod writes with trigger %s', async (requestedBy, trigger) => {
      const sut = replica(
        scriptedRunPod()
          .onList(emptyVolume())
          .onCatalog(RANKED_CATALOG)
          .onCreate(createRefused(402, null, 'insufficient balance')),
      );

      await sut.runner.process(job('job-P', { podName: TEST_POD_NAME, requestedBy }));

      expect(sut.actions.entries.length).toBeGreaterThan(0);
      expect(sut.actions.entries.map((e) => e.trigger)).toEqual(sut.actions.entries.map(() => trigger));
    });

    it('a stale pod the termination guard kept is named in the history reason and the job result (no call, so no action row)', async () => {
      const runpod = replacingGpulessPod().onObserve(
        'new1',
        found('new1', 'Running', 1),
        found('new1', 'Starting'),
      );
      const sut = replica(runpod);

      const result = await sut.runner.process(job('job-G', { podName: TEST_POD_NAME }));

      const kept = 'termination guard kept stale pod(s) p1 (ReplacementNotRunning)';
      expect(result.message).toContain(kept);
      expect(await historyOf(TEST_POD_NAME)).toMatchObject([
        { type: 'Requested' },
        {
          type: 'Completed',
          outcome: 'Succeeded',
          wakeOutcome: 'Created',
          reason: expect.stringContaining(kept),
        },
      ]);
      expect(runpod.billableCalls).toEqual([`create ${L40S}`]);
      expect(sut.actions.summary).toEqual(['Create new1 ok']);
    });
  });

  describe('one wake per volume', () => {
    it('two concurrent jobs for the same volume: exactly one calls RunPod, the other joins with the same attemptId and makes no call', async () => {
      const { runpod: runpodA, inside, release } = blockedInObserve();
      const joining = deferred();
      // Scripted with nothing: any call the joiner made would throw and fail the test.
      const runpodB = scriptedRunPod();
      const a = replica(runpodA);
      const b = replica(runpodB, { onJoinWait: () => joining.resolve() });

      const first = a.runner.process(job('job-A', { podName: TEST_POD_NAME }));
      await inside.promise;
      const second = b.runner.process(job('job-B', { podName: TEST_POD_NAME, requestedBy: 'retry' }));
      await joining.promise;
      release.resolve();
      const [resultA, resultB] = await Promise.all([first, second]);

      expect(resultA).toMatchObject({ attemptId: 'job-A', outcome: 'AlreadyRunning', joined: false });
      expect(resultB).toEqual({ ...resultA, joined: true });
      expect(runpodA.calls).toEqual(['list', 'observe p1']);
      expect(runpodB.calls).toEqual([]);
      expect(b.actions.entries).toEqual([]);
      expect(b.logs.find('joining wake')).toEqual([
        expect.objectContaining({
          msg: 'joining wake job-A already in flight',
          pod: TEST_POD_NAME,
          attemptId: 'job-A',
        }),
      ]);
      // A joiner adds nothing to the history: one Requested/Completed pair, the holder's.
      expect((await historyOf(TEST_POD_NAME)).map((r) => `${r.type} ${r.attemptId}`)).toEqual([
        'Requested job-A',
        'Completed job-A',
      ]);
    });

    it('a wake that outlives its gate lease keeps the gate: the lease is renewed while it runs', async () => {
      const leaseMs = 300;
      const { runpod, inside, release } = blockedInObserve();
      const sut = replica(runpod, { gateLeaseMs: leaseMs });
      // Renewals come every third of a lease: once three went through, a whole lease has passed since entry.
      const renewedThrice = deferred();
      let renewals = 0;
      const renew = sut.gate.renew.bind(sut.gate);
      jest.spyOn(sut.gate, 'renew').mockImplementation(async (...args) => {
        const renewed = await renew(...args);
        if (renewed && ++renewals === 3) renewedThrice.resolve();
        return renewed;
      });

      const running = sut.runner.process(job('job-L', { podName: TEST_POD_NAME }));
      try {
        await inside.promise;
        // A generous deadline, so a gate that stops renewing fails here instead of hanging the run.
        await withinTimeout(renewedThrice.promise, 10_000, 'three renewals of the gate lease');

        expect(await sut.gate.holder(OUR_VOLUME)).toBe('job-L');
        expect(await db.redis.pttl(KEYS.wakeLock(OUR_VOLUME))).toBeGreaterThan(0);
      } finally {
        release.resolve();
        await running;
      }
      expect(await sut.gate.holder(OUR_VOLUME)).toBeNull();
    }, 20_000);

    it('a re-delivered job (same id) re-enters its own gate after a crash and runs, without joining itself', async () => {
      const sut = replica(
        scriptedRunPod()
          .onList(volumeWith(['p1']))
          .onObserve('p1', found('p1', 'Running', 1)),
      );
      // The first delivery crashed while holding the gate: the key is still held by its attempt id.
      expect(await sut.gate.enter(OUR_VOLUME, 'job-R', 30_000)).toMatchObject({ kind: 'acquired' });

      const result = await sut.runner.process(job('job-R', { podName: TEST_POD_NAME }));

      expect(result).toMatchObject({ attemptId: 'job-R', outcome: 'AlreadyRunning', joined: false });
      expect(sut.joinWaits()).toBe(0);
      expect(await sut.gate.holder(OUR_VOLUME)).toBeNull();
    });

    it('a holder that vanished without a result (its gate key gone) lets the joiner take over and run a fresh wake', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Running', 1));
      // The holder's lease runs out while the joiner waits on it.
      const sut = replica(runpod, {
        onJoinWait: () => db.redis.del(KEYS.wakeLock(OUR_VOLUME)).then(() => undefined),
      });
      expect(await sut.gate.enter(OUR_VOLUME, 'ghost', 30_000)).toMatchObject({ kind: 'acquired' });

      const result = await sut.runner.process(job('job-C', { podName: TEST_POD_NAME }));

      expect(sut.joinWaits()).toBe(1);
      expect(result).toMatchObject({ attemptId: 'job-C', outcome: 'AlreadyRunning', joined: false });
      expect(runpod.calls).toEqual(['list', 'observe p1']);
      expect((await historyOf(TEST_POD_NAME)).map((r) => `${r.type} ${r.attemptId}`)).toEqual([
        'Requested job-C',
        'Completed job-C',
      ]);
    });

    it('a joiner whose holder finished before it looked returns the published result without waiting', async () => {
      const sut = replica(scriptedRunPod());
      await sut.gate.enter(OUR_VOLUME, 'job-done', 30_000);
      const published: WakeJobResult = {
        name: TEST_POD_NAME,
        attemptId: 'job-done',
        outcome: 'Started',
        failureKind: null,
        podId: 'p1',
        gpuId: null,
        pricePerHour: null,
        proxyUrl: 'https://p1-8000.proxy.runpod.net',
        message: 'started pod p1',
        joined: false,
      };
      await sut.gate.publishResult(published);

      const result = await sut.runner.process(job('job-late', { podName: TEST_POD_NAME }));

      expect(result).toEqual({ ...published, joined: true });
      expect(sut.joinWaits()).toBe(0);
      expect(await historyOf(TEST_POD_NAME)).toEqual([]);
    });

    it('a cancelled joiner stops waiting at once and fails, with no RunPod call', async () => {
      const cancel = new AbortController();
      const runpod = scriptedRunPod();
      const sut = replica(runpod, { onJoinWait: () => cancel.abort('operator cancelled') });
      await sut.gate.enter(OUR_VOLUME, 'job-busy', 30_000);

      const error = await errorOf(
        sut.runner.process(job('job-J', { podName: TEST_POD_NAME }), cancel.signal),
      );

      expect(error.message).toBe('wake cancelled: operator cancelled');
      expect(sut.joinWaits()).toBe(1);
      expect(runpod.calls).toEqual([]);
      expect(await sut.gate.holder(OUR_VOLUME)).toBe('job-busy');
    });
  });

  describe('a wake that throws', () => {
    it('records Completed with outcome Failed / wakeOutcome Exception, publishes a Failed result, releases the gate and rethrows', async () => {
      const boom = new Error('socket hang up');
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']))
        .onObserve('p1', () => {
          throw boom;
        });
      const sut = replica(runpod);

      const error = await errorOf(sut.runner.process(job('job-X', { podName: TEST_POD_NAME })));

      expect(error).toBe(boom);
      expect(await historyOf(TEST_POD_NAME)).toMatchObject([
        { type: 'Requested', attemptId: 'job-X' },
        {
          type: 'Completed',
          attemptId: 'job-X',
          outcome: 'Failed',
          wakeOutcome: 'Exception',
          reason: 'wake threw: socket hang up',
          podId: null,
        },
      ]);
      expect(await sut.gate.readResult('job-X')).toMatchObject({
        outcome: 'Failed',
        failureKind: 'provider',
        message: 'wake threw: socket hang up',
      });
      expect(await sut.gate.holder(OUR_VOLUME)).toBeNull();
      expect(await sut.progress.get(TEST_POD_NAME)).toBeNull();
      expect(sut.logs.find('wake threw')).toEqual([
        expect.objectContaining({
          level: 50,
          msg: 'wake threw: socket hang up',
          pod: TEST_POD_NAME,
          attemptId: 'job-X',
          err: 'socket hang up',
        }),
      ]);
    });

    it('a run that throws below the cap is handed back to run again, unrecorded; the next run of the job wakes', async () => {
      const runpod = throwsOnFirstObserve();
      const sut = replica(runpod);

      const first = await errorOf(sut.runner.process(job('job-R', { podName: TEST_POD_NAME }, 1)));

      expect(first).toBeInstanceOf(WakeRunAgainError);
      expect(first.message).toBe('wake run 1 threw: connection reset');
      expect(await historyOf(TEST_POD_NAME)).toMatchObject([{ type: 'Requested', attemptId: 'job-R' }]);
      expect(await sut.gate.readResult('job-R')).toBeNull();
      expect(await sut.gate.holder(OUR_VOLUME)).toBeNull();

      const second = await sut.runner.process(job('job-R', { podName: TEST_POD_NAME }, 2));

      expect(second).toMatchObject({ attemptId: 'job-R', outcome: 'AlreadyRunning', podId: 'p1' });
      expect((await historyOf(TEST_POD_NAME)).map((r) => r.type)).toEqual([
        'Requested',
        'Requested',
        'Completed',
      ]);
      expect(runpod.billableCalls).toEqual([]);
    });

    it.each<[string, number | undefined, boolean]>([
      ['its first run', 1, true],
      ['its third run', 3, true],
      ['its last run', 4, false],
      ['a job whose run count is unreadable', undefined, false],
    ])(
      'a gate Redis cannot answer on %s (attemptsStarted %p): runs again %p',
      async (_case, attemptsStarted, runsAgain) => {
        const down = new Error('Command timed out');
        const gate = new WakeGate(db.redis, KEYS);
        gate.enter = () => Promise.reject(down);
        const runpod = scriptedRunPod();
        const sut = replica(runpod, { gate });

        const error = await errorOf(
          sut.runner.process(job('job-G', { podName: TEST_POD_NAME }, attemptsStarted)),
        );

        if (runsAgain) {
          expect(error).toBeInstanceOf(WakeRunAgainError);
          expect(error.cause).toBe(down);
        } else {
          expect(error).toBe(down);
        }
        expect(runpod.calls).toEqual([]);
        expect(await historyOf(TEST_POD_NAME)).toEqual([]);
      },
    );

    it('a cancelled wake (its job signal aborted) stops before its next call, is recorded as cancelled, releases the gate and fails the job', async () => {
      const cancel = new AbortController();
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']))
        .onObserve('p1', () => {
          cancel.abort('operator cancelled');
          return found('p1', 'Starting');
        })
        .alwaysObserve('p1', found('p1', 'Starting'));
      const sut = replica(runpod);

      const error = await errorOf(
        sut.runner.process(job('job-S', { podName: TEST_POD_NAME }), cancel.signal),
      );

      expect(error.message).toBe('wake cancelled: operator cancelled');
      expect(runpod.calls).toEqual(['list', 'observe p1']);
      expect(await historyOf(TEST_POD_NAME)).toMatchObject([
        { type: 'Requested', attemptId: 'job-S' },
        {
          type: 'Completed',
          outcome: 'Failed',
          wakeOutcome: 'Exception',
          reason: 'wake cancelled: operator cancelled',
        },
      ]);
      expect(await sut.gate.readResult('job-S')).toMatchObject({
        outcome: 'Failed',
        failureKind: 'provider',
      });
      // Someone chose to cancel: a Warning, not the Error a crash gets.
      expect(sut.logs.messages('warn')).toContain('wake cancelled: operator cancelled');
      expect(sut.logs.messages('error')).toEqual([]);
      expect(await sut.gate.holder(OUR_VOLUME)).toBeNull();
    });
  });
});
