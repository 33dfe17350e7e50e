import { eventually } from '../support/app-process';
import { Stack } from '../support/stack';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  IdleStateReader,
  actions,
  emptyVolume,
  formatTicks,
  messagesWith,
  podIdOfCall,
  podStatus,
  seedPod,
  setVllm,
  simPod,
  sleep,
  startPodDirectly,
  stopCalls,
  waitForTick,
  type PodStatusView,
  type StoredIdleRecord,
  waitForStopAndTick,
  ticksSince,
  WINDOW_TICKS,
} from './support/idle-harness';

/**
 * The idle window end to end: the built gateway, one idle monitor and the
 * simulator as real processes, CHECK_SECONDS=1 and IDLE_MINUTES=0.1, so the
 * window is ceil(0.1 × 60 / 1) = 6 idle ticks.
 */
const CAP_MS = Number(FAST_IDLE_ENV.MAX_RUNTIME_MINUTES) * 60_000;

jest.setTimeout(240_000);

describe('idle window: an unused pod is stopped a fixed number of idle ticks after it became ready', () => {
  let stack: Stack;
  let redis: IdleStateReader;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  beforeAll(async () => {
    stack = await Stack.start({ name: 'idle-window', idleMonitors: 1, env: FAST_IDLE_ENV });
    redis = new IdleStateReader(stack.prefix);
  });

  afterAll(async () => {
    redis?.close();
    await stack?.stop();
  });

  /** Ticks of this scenario only (the volume was emptied at `since`). */
  function readyLines(podId: string): string[] {
    return messagesWith(monitors(), `[idle-monitor] pod ${podId} ready after`);
  }

  async function waitForIdleStop(podId: string): Promise<void> {
    await waitForStopAndTick(stack, podId, EVENT_DEADLINE_MS);
  }

  /**
   * A pod started outside podwarden before a tick has seen its stop take effect
   * is indistinguishable from a stop RunPod ignored, and is stopped again; so a
   * direct restart waits for the confirmation, as an operator's would.
   */
  async function waitForStopConfirmed(): Promise<void> {
    await eventually(
      async () => ((await podStatus(stack)).stopConfirmed === true ? true : undefined),
      EVENT_DEADLINE_MS,
      'the stop confirmed by a tick',
    );
  }

  it('with work counters, the ready scrape seeds the baseline (streak 0) and the 6th idle tick after it stops the pod; nothing stops it while the model loads', async () => {
    const since = await emptyVolume(stack, monitors);
    // The model "loads" until three booting ticks have been seen, however late the ticks run.
    const podId = await seedPod(stack, {
      id: 'unused-pod',
      status: 'RUNNING',
      vllmReady: false,
      behaviour: 'never-ready',
    });
    const modelLoadedAt = (await simPod(stack, podId)).internal.lifecycle.readyAt;
    expect(modelLoadedAt).toBeGreaterThan(since);
    await waitForTick(
      monitors,
      (t) => (t.scheduledAt ?? t.at) > since && t.phase === 'Booting' && t.bootingTicks === 3,
      EVENT_DEADLINE_MS,
      'three booting ticks',
    );
    await setVllm(stack, podId, 'normal');

    await waitForIdleStop(podId);
    const ticks = ticksSince(monitors(), since).filter(
      (t) => t.signal !== 'NotRunning' || t.phase !== 'Down',
    );
    const table = formatTicks(ticks);
    const readyIndex = ticks.findIndex((t) => t.phase === 'Ready');
    const stopIndex = ticks.findIndex((t, i) => i > readyIndex && t.phase === 'Down');

    // Model load: RUNNING without metrics is boot, never idle.
    const booting = ticks.slice(0, readyIndex);
    expect(booting.length).toBeGreaterThanOrEqual(3);
    booting.forEach((t, i) => {
      expect({
        signal: t.signal,
        phase: t.phase,
        bootingTicks: t.bootingTicks,
        idleStreak: t.idleStreak,
      }).toEqual({ signal: 'UnreachableButRunning', phase: 'Booting', bootingTicks: i + 1, idleStreak: 0 });
    });
    // The ready tick: metrics answered for the first time, the counter seeds the baseline and banks nothing.
    expect(ticks[readyIndex]).toMatchObject({
      signal: 'Busy',
      phase: 'Ready',
      idleStreak: 0,
      bootingTicks: 0,
    });
    expect(ticks[readyIndex].at).toBeGreaterThanOrEqual(modelLoadedAt!);
    // Then idle ticks 1..5 in Ready, and the 6th idle tick stops it (its line shows the Down it left behind).
    expect(stopIndex - readyIndex).toBe(WINDOW_TICKS);
    ticks.slice(readyIndex + 1, stopIndex).forEach((t, i) => {
      expect({ signal: t.signal, phase: t.phase, idleStreak: t.idleStreak }).toEqual({
        signal: 'Idle',
        phase: 'Ready',
        idleStreak: i + 1,
      });
    });
    expect(ticks[stopIndex]).toMatchObject({ signal: 'Idle', phase: 'Down', idleStreak: 0 });

    // Exactly one stop, recorded with trigger idle, issued after the model had loaded.
    const history = (await actions(stack)).filter((a) => a.podId === podId);
    expect(history.map((a) => [a.action, a.trigger, a.ok, a.httpStatus])).toEqual([
      ['Stop', 'idle', true, 200],
    ]);
    const calls = await stopCalls(stack);
    expect(calls.map(podIdOfCall)).toEqual([podId]);
    expect(Date.parse(calls[0].at)).toBeGreaterThan(ticks[readyIndex].at);
    expect(Date.parse(calls[0].at)).toBeGreaterThan(modelLoadedAt!);
    expect(messagesWith(monitors(), `stopping ${podId} (idle)`)).toHaveLength(1);
    expect(readyLines(podId)).toHaveLength(1);
    expect(readyLines(podId)[0]).toMatch(
      /^\[idle-monitor\] pod unused-pod ready after \d+s \(boot grace 1m00s\)$/,
    );
    if (process.env.IDLE_E2E_TABLE) process.stdout.write(`\n${table}\n`);
  });

  it('without work counters (an older vLLM), the ready scrape is the first idle observation: the 6th idle scrape counting it stops the pod', async () => {
    const since = await emptyVolume(stack, monitors);
    const podId = await seedPod(stack, {
      id: 'old-vllm-pod',
      status: 'RUNNING',
      vllmReady: false,
      behaviour: 'no-counters',
    });
    await waitForIdleStop(podId);
    const ticks = ticksSince(monitors(), since);
    const readyIndex = ticks.findIndex((t) => t.phase === 'Ready');
    const stopIndex = ticks.findIndex((t, i) => i > readyIndex && t.phase === 'Down');

    expect(ticks[readyIndex]).toMatchObject({ signal: 'Idle', phase: 'Ready', idleStreak: 1 });
    // Ready scrape + 5 more idle scrapes = 6: the stop lands on the 5th tick after the ready one.
    expect(stopIndex - readyIndex).toBe(WINDOW_TICKS - 1);
    expect(ticks.slice(readyIndex, stopIndex).map((t) => t.idleStreak)).toEqual([1, 2, 3, 4, 5]);
    expect(ticks[stopIndex]).toMatchObject({ signal: 'Idle', phase: 'Down' });
    const history = (await actions(stack)).filter((a) => a.podId === podId);
    expect(history.map((a) => [a.action, a.trigger, a.ok])).toEqual([['Stop', 'idle', true]]);
  });

  it('GET reports readySince, idleStopAt and runtimeCapAt consistently with the idle state, and clears them at the stop', async () => {
    const since = await emptyVolume(stack, monitors);
    // Held in boot until GET has been sampled there, then let load.
    const podId = await seedPod(stack, {
      id: 'watched-pod',
      status: 'RUNNING',
      vllmReady: false,
      behaviour: 'never-ready',
    });
    const samples: Array<{ view: PodStatusView; record: StoredIdleRecord }> = [];
    const stopped = async (): Promise<boolean> =>
      (await actions(stack)).some((a) => a.action === 'Stop' && a.podId === podId);

    let released = false;
    const deadline = Date.now() + 4 * EVENT_DEADLINE_MS;
    while (!(await stopped())) {
      if (Date.now() > deadline) throw new Error('no idle stop in time');
      // A GET between two reads of the same record saw exactly that record.
      const before = await redis.read();
      const view = await podStatus(stack);
      const after = await redis.read();
      if (before !== null && after !== null && before.updatedAt === after.updatedAt)
        samples.push({ view, record: after });
      if (!released && samples.some((s) => s.record.state.phase === 'Booting')) {
        await setVllm(stack, podId, 'normal');
        released = true;
      }
      await sleep(120);
    }
    const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
    for (const { view, record } of samples) {
      const { state } = record;
      expect({
        readySince: view.readySince,
        idleStopAt: view.idleStopAt,
        runtimeCapAt: view.runtimeCapAt,
      }).toEqual({
        readySince: iso(state.readySince),
        idleStopAt:
          state.phase === 'Ready' ? iso(state.lastTickAt! + (WINDOW_TICKS - state.idleStreak) * 1000) : null,
        runtimeCapAt: state.upSince === null ? null : iso(state.upSince + CAP_MS),
      });
    }
    const booting = samples.filter((s) => s.record.state.phase === 'Booting');
    const ready = samples.filter((s) => s.record.state.phase === 'Ready');
    expect(booting.length).toBeGreaterThan(0);
    expect(ready.length).toBeGreaterThan(0);
    // Booting: running and billed, not usable yet; the cap is armed from the first up observation.
    expect(booting[0].view).toMatchObject({ isRunning: true, readySince: null, idleStopAt: null });
    expect(booting[0].view.runtimeCapAt).not.toBeNull();
    // Ready: the cap clock did not move, and the idle deadline counted the ticks the stop actually took:
    // the stop came exactly (window − streak) ticks after the tick that wrote the record GET showed.
    const up = samples.filter((s) => s.record.state.phase !== 'Down');
    expect(new Set(up.map((s) => s.view.runtimeCapAt))).toEqual(new Set([booting[0].view.runtimeCapAt]));
    await waitForStopAndTick(stack, podId, EVENT_DEADLINE_MS);
    const ticks = ticksSince(monitors(), since);
    const last = ready[ready.length - 1].record;
    const predictedFrom = ticks.findIndex((t) => t.tickId === last.lastTickId);
    const stopIndex = ticks.findIndex((t, i) => i > predictedFrom && t.phase === 'Down');
    expect(predictedFrom).toBeGreaterThanOrEqual(0);
    expect(stopIndex - predictedFrom).toBe(WINDOW_TICKS - last.state.idleStreak);
    expect((await stopCalls(stack)).map(podIdOfCall)).toEqual([podId]);
    // After the stop (the Down edge) the three deadlines are gone.
    await eventually(
      async () => {
        const view = await podStatus(stack);
        return view.readySince === null && view.idleStopAt === null && view.runtimeCapAt === null
          ? view
          : undefined;
      },
      EVENT_DEADLINE_MS,
      'GET to clear readySince, idleStopAt and runtimeCapAt after the stop',
    );
  });

  it('a stop→start under the same id (counters back to zero) enters Ready with IdleStreak 0 and a fresh readySince, and logs ready once per boot', async () => {
    // Start and load take no time, so the restarted pod answers metrics on the very next tick:
    // only the Down edge of the accepted stop separates the two boots.
    const since = await emptyVolume(stack, monitors, {
      timings: {
        provisioningMs: 0,
        startingMs: 0,
        gpuAttachMs: 0,
        modelLoadMs: 0,
        chatMs: 200,
        terminateMs: 0,
      },
    });
    const podId = await seedPod(stack, { id: 'reused-id-pod', status: 'RUNNING', vllmReady: true });
    const firstReady = await eventually(
      async () => (await podStatus(stack)).readySince ?? undefined,
      EVENT_DEADLINE_MS,
      'first readySince',
    );

    // Boot 1 ends in an idle stop; the pod is started again at once (wake-on-chat, or the cockpit's stop→start).
    await waitForIdleStop(podId);
    await waitForStopConfirmed();
    // Taken before the start call: a tick scheduled while the call was in flight (1 s ticks, loaded
    // cores) may be the first to see boot 2; only a tick that ended before this cannot have seen it.
    const restartedAt = Date.now();
    expect(await startPodDirectly(stack, podId)).toBe(200);
    const secondReadyTick = await waitForTick(
      monitors,
      (t) => t.at > restartedAt && t.phase === 'Ready',
      EVENT_DEADLINE_MS,
      'Ready after the restart',
    );
    expect(secondReadyTick).toMatchObject({ signal: 'Busy', idleStreak: 0 });
    const secondReady = await eventually(
      async () => {
        const readySince = (await podStatus(stack)).readySince;
        return readySince !== null && readySince !== firstReady ? readySince : undefined;
      },
      EVENT_DEADLINE_MS,
      'a fresh readySince',
    );
    expect(Date.parse(secondReady)).toBeGreaterThan(Date.parse(firstReady));

    // Boot 2 ends in a manual stop through the gateway, and again the pod is started at once.
    await waitForTick(
      monitors,
      (t) => t.at > secondReadyTick.at && t.phase === 'Ready' && t.idleStreak >= 2,
      EVENT_DEADLINE_MS,
      'two idle ticks in boot 2',
    );
    const stop = await stack.api<{ ok: boolean }>('POST', '/api/pods/qwen/stop', { token: 'operator' });
    expect(stop.status).toBe(200);
    expect(stop.body.ok).toBe(true);
    await waitForStopConfirmed();
    const restartedAgainAt = Date.now();
    expect(await startPodDirectly(stack, podId)).toBe(200);
    const thirdReadyTick = await waitForTick(
      monitors,
      (t) => t.at > restartedAgainAt && t.phase === 'Ready',
      EVENT_DEADLINE_MS,
      'Ready after the manual stop and start',
    );
    expect(thirdReadyTick).toMatchObject({ signal: 'Busy', idleStreak: 0 });
    const thirdReady = await eventually(
      async () => {
        const readySince = (await podStatus(stack)).readySince;
        return readySince !== null && readySince !== secondReady ? readySince : undefined;
      },
      EVENT_DEADLINE_MS,
      'another fresh readySince',
    );
    expect(Date.parse(thirdReady)).toBeGreaterThan(Date.parse(secondReady));

    // Each boot then runs a full window again; three boots, three ready lines.
    await waitForTick(
      monitors,
      (t) => t.at > thirdReadyTick.at && t.phase === 'Ready' && t.idleStreak === WINDOW_TICKS - 1,
      EVENT_DEADLINE_MS,
      'a full window in boot 3',
    );
    expect(readyLines(podId)).toHaveLength(3);
    const history = (await actions(stack)).filter((a) => a.podId === podId).reverse();
    expect(history.map((a) => [a.action, a.trigger])).toEqual([
      ['Stop', 'idle'],
      ['Stop', 'manual'],
    ]);
    if (process.env.IDLE_E2E_TABLE) process.stdout.write(`\n${formatTicks(ticksSince(monitors(), since))}\n`);
  });
});
