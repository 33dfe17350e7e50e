import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PodRun } from '@podwarden/policies';
import { TEST_LOG_DIR, eventually } from '../support/app-process';
import { Stack } from '../support/stack';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  IDLE_TEST_TIMINGS,
  actions,
  emptyVolume,
  messagesWith,
  podIdOfCall,
  podStatus,
  simPod,
  stopCalls,
  tickLines,
  type PodStatusView,
  type TickLine,
  waitForStopAndTick,
  WINDOW_TICKS,
} from './support/idle-harness';

/**
 * The whole life of a wake-on-demand pod with accelerated time: POST …/start
 * through the gateway and a waker creates a pod, the simulator provisions,
 * starts and loads the model, the idle monitor waits for the model, counts
 * the idle window from ready and stops the pod. The tick table of the run is
 * written to test-logs/idle-timeline.md (docs/idle-monitor.md quotes one).
 */

jest.setTimeout(240_000);

describe('wake → ready → idle stop', () => {
  let stack: Stack;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  beforeAll(async () => {
    stack = await Stack.start({ name: 'idle-timeline', wakers: 1, idleMonitors: 1, env: FAST_IDLE_ENV });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('a created pod is Booting through provisioning, start and model load, Ready at the first scrape, and stopped by the 6th idle tick after it', async () => {
    const since = await emptyVolume(stack, monitors);
    const requestedAt = Date.now();
    const start = await stack.api<{ outcome: string; podId: string }>('POST', '/api/pods/qwen/start', {
      token: 'wake',
    });
    const answeredAt = Date.now();
    expect([200, 202]).toContain(start.status);
    const podId = await eventually(
      async () => (await podStatus(stack)).podId ?? undefined,
      EVENT_DEADLINE_MS,
      'the created pod on the volume',
    );
    const lifecycle = (await simPod(stack, podId)).internal.lifecycle;
    const life = {
      startedAt: lifecycle.startedAt!,
      startingAt: lifecycle.startingAt!,
      runningAt: lifecycle.runningAt!,
      attachedAt: lifecycle.attachedAt!,
      readyAt: lifecycle.readyAt!,
    };

    // Sample GET while it runs, to quote readySince and idleStopAt as a caller sees them.
    const views: Array<{ at: number; view: PodStatusView }> = [];
    await eventually(
      async () => {
        views.push({ at: Date.now(), view: await podStatus(stack) });
        return (await actions(stack)).some((a) => a.action === 'Stop') ? true : undefined;
      },
      4 * EVENT_DEADLINE_MS,
      'the idle stop',
      200,
    );
    await waitForStopAndTick(stack, podId, EVENT_DEADLINE_MS);
    const ticks = tickLines(monitors()).filter((t) => (t.scheduledAt ?? t.at) > since);
    const upIndex = ticks.findIndex((t) => t.signal !== 'NotRunning');
    const readyIndex = ticks.findIndex((t) => t.phase === 'Ready');
    const stopIndex = ticks.findIndex((t, i) => i > readyIndex && t.phase === 'Down');
    const stopCall = (await stopCalls(stack)).find((c) => podIdOfCall(c) === podId)!;

    // Provisioning and Starting read Booting; RUNNING while the model loads reads UnreachableButRunning; all
    // Booting. A tick whose whole run fell inside one phase must read that phase's signal; in that order.
    const boot = ticks.slice(upIndex, readyIndex);
    expect(boot.length).toBeGreaterThanOrEqual(1);
    expect(boot.every((t) => t.phase === 'Booting')).toBe(true);
    expect(boot.map((t) => t.bootingTicks)).toEqual(boot.map((_, i) => i + 1));
    const signals = boot.map((t) => t.signal);
    const firstLoading = signals.includes('UnreachableButRunning')
      ? signals.indexOf('UnreachableButRunning')
      : signals.length;
    expect(signals.slice(0, firstLoading).every((signal) => signal === 'Booting')).toBe(true);
    expect(signals.slice(firstLoading).every((signal) => signal === 'UnreachableButRunning')).toBe(true);
    const beforeRunning = boot.filter((t) => t.at < life.runningAt);
    const whileLoading = boot.filter((t) => t.scheduledAt! > life.runningAt);
    expect(beforeRunning.map((t) => t.signal)).toEqual(beforeRunning.map(() => 'Booting'));
    expect(whileLoading.map((t) => t.signal)).toEqual(whileLoading.map(() => 'UnreachableButRunning'));
    expect(ticks[readyIndex].at).toBeGreaterThanOrEqual(life.readyAt);
    expect(ticks[readyIndex]).toMatchObject({ signal: 'Busy', idleStreak: 0 });
    expect(stopIndex - readyIndex).toBe(WINDOW_TICKS);
    expect(Date.parse(stopCall.at)).toBeGreaterThan(ticks[readyIndex].at);
    const history = await actions(stack);
    expect(history.map((a) => [a.action, a.trigger, a.ok]).reverse()).toEqual([
      ['Create', 'wake', true],
      ['Stop', 'idle', true],
    ]);
    const readyLine = messagesWith(monitors(), `[idle-monitor] pod ${podId} ready after`);
    expect(readyLine).toHaveLength(1);

    // The run in /history: one, stopped by the idle window, ready in between, priced.
    const runs = (await stack.api<{ runs: PodRun[] }>('GET', '/api/pods/qwen/history')).body.runs;
    expect(runs).toHaveLength(1);
    const [run] = runs;
    expect(run).toMatchObject({ podId, stopTrigger: 'idle' });
    expect([run.startedAt, run.stoppedAt]).toEqual(
      ['Create', 'Stop'].map((name) => history.find((a) => a.action === name)?.at),
    );
    expect(run.readyAt).not.toBeNull();
    expect(Date.parse(run.readyAt!)).toBeGreaterThan(Date.parse(run.startedAt!));
    expect(Date.parse(run.readyAt!)).toBeLessThan(Date.parse(run.stoppedAt!));
    expect(run.usableSeconds!).toBeGreaterThan(0);
    expect(run.usableSeconds!).toBeLessThanOrEqual(run.uptimeSeconds!);
    expect(run.timeToReadySeconds! + run.usableSeconds!).toBeCloseTo(run.uptimeSeconds!, 0);
    expect(run.pricePerHour!).toBeGreaterThan(0);
    expect(run.estimatedCostUsd!).toBeGreaterThan(0);

    const readyView = views.find((v) => v.view.readySince !== null)?.view ?? null;
    writeTimeline({
      podId,
      outcome: `${start.status} ${start.body.outcome}`,
      requestedAt,
      answeredAt,
      life,
      ticks: ticks.slice(Math.max(0, upIndex - 1), stopIndex + 2),
      readyLine: readyLine[0],
      readyView,
      stopAt: Date.parse(stopCall.at),
    });
  });
});

interface Timeline {
  readonly podId: string;
  readonly outcome: string;
  readonly requestedAt: number;
  readonly answeredAt: number;
  readonly life: Record<'startedAt' | 'startingAt' | 'runningAt' | 'attachedAt' | 'readyAt', number>;
  readonly ticks: readonly TickLine[];
  readonly readyLine: string;
  /** A GET answer that showed readySince, when the sampling caught one. */
  readonly readyView: PodStatusView | null;
  readonly stopAt: number;
}

/** The run as markdown tables, times relative to the start request (the simulator runs at speed 1). */
function writeTimeline(run: Timeline): void {
  const t0 = run.requestedAt;
  const rel = (ms: number): string => `+${((ms - t0) / 1000).toFixed(2)} s`;
  const iso = (ms: number): string => new Date(ms).toISOString().slice(11, 23);
  const events: Array<[number, string]> = [
    [run.requestedAt, 'POST /api/pods/qwen/start'],
    [run.answeredAt, `start answered ${run.outcome} (pod ${run.podId})`],
    [run.life.startedAt, 'pod created: PROVISIONING'],
    [run.life.startingAt, 'STARTING'],
    [run.life.runningAt, 'RUNNING (GPU attached; vLLM loading, /metrics 502)'],
    [run.life.readyAt, 'model loaded: vLLM answers /metrics'],
    ...(run.readyView === null
      ? []
      : [
          [
            Date.parse(run.readyView.readySince!),
            `readySince (GET); idleStopAt ${run.readyView.idleStopAt}`,
          ] as [number, string],
        ]),
    [run.stopAt, 'POST /pods/{id}/action stop (trigger idle)'],
  ];
  const lines = [
    `Run of ${new Date(t0).toISOString()}: CHECK_SECONDS=1, IDLE_MINUTES=0.1 (window 6 ticks), simulator timings ${JSON.stringify(IDLE_TEST_TIMINGS)}`,
    '',
    '| when | UTC | event |',
    '|---|---|---|',
    ...events.sort((a, b) => a[0] - b[0]).map(([at, what]) => `| ${rel(at)} | ${iso(at)} | ${what} |`),
    '',
    `Ready line: \`${run.readyLine}\``,
    '',
    '| tick scheduled | logged | signal | phase | idleStreak | bootingTicks |',
    '|---|---|---|---|---|---|',
    ...run.ticks.map(
      (t) =>
        `| ${rel(t.scheduledAt ?? t.at)} | ${rel(t.at)} | ${t.signal} | ${t.phase} | ${t.idleStreak} | ${t.bootingTicks} |`,
    ),
    '',
  ];
  mkdirSync(TEST_LOG_DIR, { recursive: true });
  writeFileSync(join(TEST_LOG_DIR, 'idle-timeline.md'), lines.join('\n'));
}
