import type { PodObservation } from '@podwarden/policies';
import { FenceLostError, type PublishTicket } from '@podwarden/platform';
import { RecordedEvents, actionRefused, captureLogs, found } from '@podwarden/testing';
import type { Sleep } from './sleeper';
import { FIXED_NOW, fixedClock } from './testing/fixed-clock';
import { newWakeDependencies } from './testing/new-wake-run';
import { MemoryIntents } from './testing/memory-intents';
import { RecordingActionLog } from './testing/recording-action-log';
import { RecordingProgressReporter } from './testing/recording-progress-reporter';
import { ScriptedFence } from './testing/scripted-fence';
import { testConfig, testPod } from './testing/test-config';
import { scriptedRunPod } from './testing/wake-run-harness';
import { WakeRunContext, type WakeRunFence } from './wake-run-context';
import type { WakeDependencies } from './wake-dependencies';

/** Keeps what the status publisher was asked, in order; begin answers TICKET. */
class RecordingStatus {
  readonly calls: unknown[][] = [];
  async begin(podName: string): Promise<PublishTicket | null> {
    this.calls.push(['begin', podName]);
    return TICKET;
  }
  async publish(...args: unknown[]): Promise<void> {
    this.calls.push(['publish', ...args]);
  }
  async invalidate(podName: string): Promise<void> {
    this.calls.push(['invalidate', podName]);
  }
}

const TICKET: PublishTicket = { generation: 4, observedAt: 1234 };

function setup(extra: Partial<WakeDependencies> = {}) {
  const runpod = scriptedRunPod();
  const intents = new MemoryIntents(runpod);
  const actions = new RecordingActionLog(runpod, intents);
  const sleeps: Array<[number, AbortSignal | undefined]> = [];
  const sleep: Sleep = async (ms, signal) => {
    sleeps.push([ms, signal]);
  };
  const config = testConfig();
  const deps = newWakeDependencies({
    config,
    client: runpod,
    actions,
    intents,
    logger: captureLogs().logger,
    sleep,
    now: fixedClock(),
    ...extra,
  });
  return { runpod, intents, actions, sleeps, deps, pod: testPod(config) };
}

/** A fence whose signal the spec aborts itself. */
function abortableFence(): WakeRunFence & { controller: AbortController } {
  const controller = new AbortController();
  return { controller, token: 3, signal: controller.signal, assertHeld: async () => undefined };
}

describe(WakeRunContext.name, () => {
  describe('the signal a pause waits on', () => {
    it('is none without a job signal or a fence', async () => {
      const s = setup();
      await new WakeRunContext(s.deps, s.pod, new RecordingProgressReporter()).pause(5);

      expect(s.sleeps).toEqual([[5, undefined]]);
    });

    it("is the job's own signal when there is no fence", async () => {
      const s = setup();
      const job = new AbortController();
      await new WakeRunContext(s.deps, s.pod, new RecordingProgressReporter(), job.signal).pause(5);

      expect(s.sleeps[0]?.[1]).toBe(job.signal);
    });

    it("is the fence's own signal when there is no job signal", async () => {
      const s = setup();
      const fence = abortableFence();
      await new WakeRunContext(s.deps, s.pod, new RecordingProgressReporter(), undefined, fence).pause(5);

      expect(s.sleeps[0]?.[1]).toBe(fence.signal);
    });

    it.each(['job', 'fence'] as const)(
      'with both, aborts when the %s signal aborts, with its reason',
      async (which) => {
        const s = setup();
        const job = new AbortController();
        const fence = abortableFence();
        const ctx = new WakeRunContext(s.deps, s.pod, new RecordingProgressReporter(), job.signal, fence);
        await ctx.pause(5);
        const joined = s.sleeps[0]?.[1];
        expect(joined?.aborted).toBe(false);

        (which === 'job' ? job : fence.controller).abort(`${which} gone`);

        expect(joined?.aborted).toBe(true);
        expect(joined?.reason).toBe(`${which} gone`);
      },
    );
  });

  describe('the status snapshot', () => {
    it('takes a ticket before the observations and publishes every pod observed with it', async () => {
      const status = new RecordingStatus();
      const s = setup({ status });
      const ctx = new WakeRunContext(s.deps, s.pod, new RecordingProgressReporter());
      const observations: PodObservation[] = [found('p1', 'Running'), found('p2', 'Exited')];

      const ticket = await ctx.statusTicket();
      await ctx.publishVolume(ticket, observations);

      expect(ticket).toBe(TICKET);
      expect(status.calls).toEqual([
        ['begin', 'qwen'],
        [
          'publish',
          'qwen',
          TICKET,
          {
            kind: 'found',
            pods: [
              { podId: 'p1', observation: observations[0] },
              { podId: 'p2', observation: observations[1] },
            ],
          },
        ],
      ]);
    });

    it('publishes nothing for a round that observed no pod', async () => {
      const status = new RecordingStatus();
      const s = setup({ status });
      const ctx = new WakeRunContext(s.deps, s.pod, new RecordingProgressReporter());

      await ctx.publishVolume(TICKET, []);

      expect(status.calls).toEqual([]);
    });

    it('without a status publisher, the ticket is null', async () => {
      const s = setup();
      const ctx = new WakeRunContext(s.deps, s.pod, new RecordingProgressReporter());

      expect(await ctx.statusTicket()).toBeNull();
    });
  });

  describe('announce', () => {
    it('publishes on the pod stream with the attempt id first', async () => {
      const events = new RecordedEvents();
      const s = setup({ events });
      const ctx = new WakeRunContext(
        s.deps,
        s.pod,
        new RecordingProgressReporter(),
        undefined,
        undefined,
        'a-9',
      );

      await ctx.announce('budget-refused', { reason: 'over' });

      expect(events.events).toEqual([
        { pod: 'qwen', type: 'budget-refused', data: { attemptId: 'a-9', reason: 'over' } },
      ]);
    });

    it("says 'unknown' for a run given no attempt id", async () => {
      const events = new RecordedEvents();
      const s = setup({ events });

      await new WakeRunContext(s.deps, s.pod, new RecordingProgressReporter()).announce('phase', {});

      expect(events.events[0]?.data).toEqual({ attemptId: 'unknown' });
    });
  });

  describe('send and billable', () => {
    it('checks the fence, writes the intent under its token, then calls; the record claims the intent', async () => {
      const s = setup();
      const fence = new ScriptedFence(s.runpod);
      const ctx = new WakeRunContext(s.deps, s.pod, new RecordingProgressReporter(), undefined, fence, 'a-1');
      s.runpod.onTerminate(actionRefused(409, 'busy'));

      const draft = {
        action: 'Terminate',
        podId: 'p1',
        gpuId: null,
        pricePerHour: null,
        requestName: null,
      } as const;
      const { result, intent } = await ctx.send(draft, () => ctx.runpod.terminatePod('p1'));
      await ctx.podAction('Terminate', 'p1', result, 'terminate of p1 refused', intent);

      expect(intent).toEqual({
        id: expect.any(String),
        at: FIXED_NOW,
        podName: 'qwen',
        attemptId: 'a-1',
        fenceToken: 7,
        answeredStatus: null,
        ...draft,
      });
      // The write checks the fence again right before the call.
      expect(s.runpod.events).toEqual([
        'fence held',
        'intent Terminate p1',
        'fence held',
        'terminate p1',
        'record Terminate p1 ok=false',
      ]);
      expect(s.actions.entries).toEqual([
        {
          at: FIXED_NOW,
          podName: 'qwen',
          action: 'Terminate',
          podId: 'p1',
          gpuId: null,
          pricePerHour: null,
          httpStatus: 409,
          ok: false,
          trigger: 'wake',
          detail: 'busy',
        },
      ]);
      expect(s.intents.entries.size).toBe(0);
    });

    it('a lost fence writes no intent and makes no call', async () => {
      const s = setup();
      const fence = new ScriptedFence(s.runpod);
      fence.lose();
      const ctx = new WakeRunContext(s.deps, s.pod, new RecordingProgressReporter(), undefined, fence);
      const draft = {
        action: 'Start',
        podId: 'p1',
        gpuId: null,
        pricePerHour: null,
        requestName: null,
      } as const;

      await expect(ctx.send(draft, () => ctx.runpod.startPod('p1'))).rejects.toBeInstanceOf(FenceLostError);
      expect(s.runpod.events).toEqual(['fence lost']);
      expect(s.intents.entries.size).toBe(0);
    });

    it("without a fence the intent has no token and the run's attempt is 'unknown'", async () => {
      const s = setup();
      const ctx = new WakeRunContext(s.deps, s.pod, new RecordingProgressReporter());
      const draft = {
        action: 'Start',
        podId: 'p1',
        gpuId: null,
        pricePerHour: null,
        requestName: null,
      } as const;

      const { intent } = await ctx.send(draft, async () => 'sent');

      expect(intent).toMatchObject({ fenceToken: null, attemptId: 'unknown' });
    });

    it.each<[string, number | null, object | undefined]>([
      ['without an in-doubt status the intent is claimed', null, undefined],
      ['with one it stays open in doubt with that status', 502, { answeredStatus: 502 }],
    ])('%s; a pre-wake records its rows as prewake', async (_case, inDoubtStatus, stillOpen) => {
      const s = setup();
      const ctx = new WakeRunContext(
        s.deps,
        s.pod,
        new RecordingProgressReporter(),
        undefined,
        undefined,
        'a-2',
        'prewake',
      );
      const draft = { action: 'Create', podId: null, gpuId: 'G', pricePerHour: 1, requestName: 'n' } as const;
      const { intent } = await ctx.send(draft, async () => undefined);

      await ctx.billable({
        action: 'Create',
        podId: null,
        gpuId: 'G',
        pricePerHour: 1,
        httpStatus: inDoubtStatus ?? 400,
        ok: false,
        detail: null,
        message: 'create answered',
        intent,
        inDoubtStatus,
      });

      expect(s.actions.entries.map((e) => [e.trigger, e.httpStatus])).toEqual([
        ['prewake', inDoubtStatus ?? 400],
      ]);
      expect(s.intents.entries.get(intent.id)).toEqual(stillOpen && { ...intent, ...stillOpen });
    });
  });
});
