import { eventually } from '../../support/app-process';
import { seedPod, simPods, simWrites } from '../../support/sim-admin';
import { Stack } from '../../support/stack';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  formatTicks,
  IDLE_TEST_TIMINGS,
  resetSim,
  tickLines,
  waitForTick,
} from '../../idle/support/idle-harness';

/** A Redis topology a spec owns, and how to move its primary. */
export interface TopologyUnderTest {
  readonly env: Record<string, string>;
  /** Moves the primary that holds this stack's keys (hash tag `{prefix}` on a cluster). */
  failover(prefix: string): Promise<unknown>;
  /** On a cluster: how many of the stack's keys live in its hash tag's slot, and how many there are. */
  keysOf?(prefix: string): Promise<{ inTagSlot: number; total: number }>;
  stop(): Promise<void>;
}

/** Idle window of 30 one-second ticks: long enough that a failover lands mid-streak. */
const IDLE_MINUTES = '0.5';
const STREAK_BEFORE_FAILOVER = 3;

/**
 * The same two failovers on any topology, with the built apps as real
 * processes: one during a wake (the start went out, the pod is booting) and
 * one during an idle streak. Neither may lose the job, bill a second pod, or
 * restart the streak.
 */
export function describeFailovers(
  title: string,
  startTopology: () => Promise<TopologyUnderTest>,
  options: { readonly cluster: boolean },
): void {
  describe(title, () => {
    let topology: TopologyUnderTest;
    let stack: Stack;

    beforeAll(async () => {
      topology = await startTopology();
      stack = await Stack.start({
        name: title.replace(/\W+/g, '-').toLowerCase(),
        wakers: 1,
        idleMonitors: 1,
        env: { ...FAST_IDLE_ENV, IDLE_MINUTES, ...topology.env },
      });
    });
    afterAll(async () => {
      await stack?.stop();
      await topology?.stop();
    });

    const podStatus = async () => (await stack.api('GET', '/api/pods/qwen')).body;

    it('a primary failover during a wake: the wake completes, one start, one pod, nothing created', async () => {
      await resetSim(stack, { timings: { ...IDLE_TEST_TIMINGS, startingMs: 5000 } });
      const podId = await seedPod(stack, { status: 'EXITED' });

      const answer = stack.api('POST', '/api/pods/qwen/start', { token: 'operator' });
      await eventually(
        async () => ((await simWrites(stack)).length > 0 ? true : undefined),
        EVENT_DEADLINE_MS,
        'the start sent to RunPod',
      );
      await topology.failover(stack.prefix);

      expect([200, 202]).toContain((await answer).status);
      const status = await eventually(
        async () => {
          const body = await podStatus();
          const lastWake = body.lastWake as { outcome?: string } | null;
          return body.wake === null && lastWake?.outcome !== undefined ? body : undefined;
        },
        60_000,
        'the wake recorded as completed after the failover',
      );
      expect(status.lastWake).toMatchObject({ outcome: 'Succeeded', wakeOutcome: 'Started', podId });
      const billable = (await simWrites(stack)).filter((w) => !w.endsWith(' stop'));
      expect(billable).toEqual([`POST /pods/${podId}/action start`]);
      expect((await simPods(stack)).filter((p) => p.status !== 'TERMINATED').map((p) => p.id)).toEqual([
        podId,
      ]);
    });

    it('a primary failover during an idle streak: the streak goes on from where it was and the pod is stopped once', async () => {
      await resetSim(stack);
      const podId = 'pod-failover-idle';
      await seedPod(stack, { id: podId, status: 'RUNNING', vllmReady: true });
      const seededAt = Date.now();
      const monitors = () => stack.idleMonitors;

      const before = await waitForTick(
        monitors,
        (t) => t.at > seededAt && t.phase === 'Ready' && t.idleStreak >= STREAK_BEFORE_FAILOVER,
        EVENT_DEADLINE_MS,
        `an idle streak of ${STREAK_BEFORE_FAILOVER}`,
      );
      const readySince = (await podStatus()).readySince;
      await topology.failover(stack.prefix);
      const failedOverAt = Date.now();

      const after = await waitForTick(
        monitors,
        (t) => t.at > failedOverAt && t.phase === 'Ready',
        EVENT_DEADLINE_MS,
        'a tick after the failover',
      );
      if (after.idleStreak <= before.idleStreak) {
        throw new Error(
          `the streak restarted after the failover:\n${formatTicks(tickLines(stack.idleMonitors))}`,
        );
      }
      expect((await podStatus()).readySince).toBe(readySince);

      await eventually(
        async () => ((await simWrites(stack)).length > 0 ? true : undefined),
        90_000,
        'the idle stop',
      );
      const streaks = tickLines(stack.idleMonitors)
        .filter((t) => t.at > seededAt && t.phase === 'Ready')
        .map((t) => t.idleStreak);
      // Never back to the start of the window once the streak began.
      expect(streaks.slice(streaks.indexOf(before.idleStreak)).every((s) => s >= before.idleStreak)).toBe(
        true,
      );
      await eventually(
        async () =>
          (await simPods(stack)).find((p) => p.id === podId)?.status === 'EXITED' ? true : undefined,
        EVENT_DEADLINE_MS,
        'the pod stopped',
      );
      expect(await simWrites(stack)).toEqual([`POST /pods/${podId}/action stop`]);
    });

    const onCluster = options.cluster ? it : it.skip;
    onCluster(
      'every key of the stack (BullMQ queues and podwarden stores) is in the one slot of its hash tag',
      async () => {
        const keys = await topology.keysOf!(stack.prefix);
        expect(keys.total).toBeGreaterThan(5);
        expect(keys.inTagSlot).toBe(keys.total);
      },
    );
  });
}
