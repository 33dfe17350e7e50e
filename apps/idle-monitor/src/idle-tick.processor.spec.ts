import type { Job } from 'bullmq';
import {
  IDLE_TICK_SCHEDULER_ID,
  PodwardenMetrics,
  WorkerHostKit,
  WorkerMetrics,
  type WorkerState,
} from '@podwarden/platform';
import { IdleTickProcessor } from './idle-tick.processor';
import { T0, idleTickHarnesses, type IdleTickHarness } from './idle/testing/idle-tick-harness';

const harness = idleTickHarnesses();

/** Counts the ticks the processor reports as completed (readiness reads them). */
function tickStateOf(): WorkerState & { completed: number } {
  const state = { completed: 0, tickCompleted: () => Promise.resolve(void state.completed++) };
  return state as unknown as WorkerState & { completed: number };
}

function processorOf(
  h: IdleTickHarness,
  state = tickStateOf(),
  metrics = new PodwardenMetrics(),
): IdleTickProcessor {
  return new IdleTickProcessor(
    h.tick,
    new WorkerHostKit(
      h.config,
      h.logs.logger,
      state,
      new WorkerMetrics(metrics, 'idle-monitor', () => Promise.resolve(null)),
    ),
  );
}

/** A scheduler job as BullMQ hands it over: its id ends in the scheduled time. */
function tickJob(scheduledAt: number): Job {
  return { id: `repeat:${IDLE_TICK_SCHEDULER_ID}:${scheduledAt}`, timestamp: scheduledAt + 3 } as Job;
}

describe(IdleTickProcessor.name, () => {
  it("runs one tick per job under the job's id and scheduled time, and returns each pod's phase and streak", async () => {
    const h = harness();
    h.fake.setPod('p1', { metrics: { active: 0, completed: 0 } });
    const processor = processorOf(h);

    const first = await processor.process(tickJob(T0 + 1000));
    h.now += 1000;
    const second = await processor.process(tickJob(T0 + 2000));
    const stale = await processor.process(tickJob(T0 + 1500));

    expect([first, second, stale]).toEqual([
      { pods: { qwen: 'Ready/0' } },
      { pods: { qwen: 'Ready/1' } },
      { pods: { qwen: 'skipped:already-ticked' } },
    ]);
    expect(await h.store.load('qwen')).toMatchObject({
      lastTickId: `repeat:${IDLE_TICK_SCHEDULER_ID}:${T0 + 2000}`,
      lastTickScheduledAt: T0 + 2000,
    });
  });

  it('names the stop a tick made', async () => {
    const h = harness();
    h.fake.setPod('p1', { metrics: { active: 0, completed: 0 } });
    await h.lines(6);
    h.now += 1000;

    expect(await processorOf(h).process(tickJob(h.now))).toEqual({ pods: { qwen: 'Down/0/stop:idle' } });
  });

  it("the job's AbortSignal reaches the tick's RunPod reads: a tick cancelled after its list makes no further call and writes nothing", async () => {
    const h = harness();
    h.fake.setPod('p1', { metrics: { active: 0, completed: 0 } });
    await h.lines(6);
    const before = await h.store.load('qwen');
    h.fake.honoursSignals = true;
    const listed = h.gate();
    h.fake.holdNextList = listed.promise;
    const controller = new AbortController();
    const reason = new Error('job cancelled');
    h.now += 1000;

    const cancelled = processorOf(h).process(tickJob(h.now), 'token', controller.signal);
    await h.untilCalled('list');
    controller.abort(reason);
    listed.open();

    await expect(cancelled).rejects.toBe(reason);
    expect(h.fake.takeCalls()).toEqual(['list']);
    expect(await h.store.load('qwen')).toEqual(before);
    expect(await h.actionsOf()).toEqual([]);
    // The lock was released: the next tick runs and stops the pod.
    expect((await h.next()).line).toBe('Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => idle');
  });

  it('a tick cancelled before its stop makes no stop call', async () => {
    const h = harness();
    h.fake.honoursSignals = true;
    const controller = new AbortController();
    const scrape = h.gate();
    h.fake.setPod('p1', { metrics: { active: 0, completed: 0 } });
    await h.lines(6);
    h.fake.onActivity('p1', async () => {
      await scrape.promise;
      return { active: 0, completed: 0 };
    });
    h.now += 1000;

    const cancelled = processorOf(h).process(tickJob(h.now), 'token', controller.signal);
    await h.untilCalled('metrics p1');
    controller.abort(new Error('job cancelled'));
    scrape.open();

    await expect(cancelled).rejects.toThrow('job cancelled');
    expect(h.fake.takeCalls()).toEqual(['list', 'metrics p1']);
    expect(await h.actionsOf()).toEqual([]);
  });

  it('counts each tick by outcome and duration, and reports each completed tick for readiness', async () => {
    const h = harness();
    h.fake.setPod('p1', { metrics: { active: 0, completed: 0 } });
    const state = tickStateOf();
    const metrics = new PodwardenMetrics();
    const processor = processorOf(h, state, metrics);

    await processor.process(tickJob(T0 + 1000));
    const controller = new AbortController();
    controller.abort(new Error('job cancelled'));
    await expect(processor.process(tickJob(T0 + 2000), 'token', controller.signal)).rejects.toThrow();

    const text = await metrics.registry.metrics();
    expect(text).toContain('podwarden_jobs_total{queue="idle-tick",outcome="completed"} 1');
    expect(text).toContain('podwarden_jobs_total{queue="idle-tick",outcome="failed"} 1');
    expect(text).toContain('podwarden_job_duration_seconds_count{queue="idle-tick"} 2');
    expect(state.completed).toBe(1);
  });

  describe('at shutdown', () => {
    /** A stand-in for BullMQ's worker: records how it was paused and closed, with Redis answering or not. */
    function workerOf(processor: IdleTickProcessor, redisStatus = 'ready'): string[] {
      const calls: string[] = [];
      const worker = {
        pause: (): Promise<void> => Promise.resolve(void calls.push('pause')),
        close: (force = false): Promise<void> =>
          Promise.resolve(void calls.push(force ? 'force' : 'graceful')),
        backend: {
          client: Promise.resolve({
            status: redisStatus,
            info: (): Promise<string> =>
              redisStatus === 'ready'
                ? Promise.resolve('# Server')
                : Promise.reject(new Error('Connection is closed.')),
          }),
        },
      };
      Object.assign(processor, { _worker: worker });
      return calls;
    }

    /** A tick held open until `release`; the job it runs in is the processor's own. */
    async function tickInFlight(h: IdleTickHarness, processor: IdleTickProcessor) {
      h.fake.setPod('p1', { metrics: { active: 0, completed: 0 } });
      const gate = h.gate();
      h.fake.holdNextList = gate.promise;
      const tick = processor.process(tickJob(h.now));
      await h.untilCalled('list');
      return { tick, release: () => gate.open() };
    }

    it('a tick that finishes within SHUTDOWN_GRACE_MS is waited for, and nothing is forced', async () => {
      const h = harness({ env: { SHUTDOWN_GRACE_MS: '60000' } });
      const processor = processorOf(h);
      const calls = workerOf(processor);
      const { tick, release } = await tickInFlight(h, processor);

      const closing = processor.beforeApplicationShutdown();
      release();
      await closing;

      await expect(tick).resolves.toEqual({ pods: { qwen: 'Ready/0' } });
      expect(calls).toEqual(['pause', 'graceful']);
      expect(h.logs.messages('warn')).toEqual([]);
    });

    it('a tick still running after SHUTDOWN_GRACE_MS is handed back: the worker is closed without waiting', async () => {
      const h = harness({ env: { SHUTDOWN_GRACE_MS: '20' } });
      const processor = processorOf(h);
      const calls = workerOf(processor);
      const { release } = await tickInFlight(h, processor);

      await processor.beforeApplicationShutdown();
      release();

      expect(calls).toEqual(['pause', 'force']);
      expect(h.logs.messages('warn')).toEqual(['idle tick still running at shutdown; handing it back']);
    });

    it('with Redis unreachable the worker is closed at once, not gently (a gentle close waits for Redis)', async () => {
      const h = harness({ env: { SHUTDOWN_GRACE_MS: '60000' } });
      const processor = processorOf(h);
      const calls = workerOf(processor, 'reconnecting');

      await processor.beforeApplicationShutdown();

      expect(calls).toEqual(['pause', 'force']);
      expect(h.logs.messages('warn')).toEqual([
        'Redis unreachable at shutdown; closing the idle tick worker at once',
      ]);
    });
  });
});
