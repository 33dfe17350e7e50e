import { Stack } from '../support/stack';
import {
  FAST_IDLE_ENV,
  actions,
  chat,
  emptyVolume,
  formatTicks,
  seedPod,
  setVllm,
  stopCalls,
  podIdOfCall,
  waitForTick,
  type TickLine,
  waitForStopAndTick,
  ticksSince,
  WINDOW_TICKS,
} from './support/idle-harness';

/**
 * What counts as use: chat turns through the simulated pod proxy, a window of
 * ceil(0.1 × 60 / 1) = 6 one-second ticks. The gauges are sampled once per
 * tick, so turns that begin and end between two ticks are only visible in
 * the work counter; a generation longer than the window is only visible in
 * the gauge.
 */

jest.setTimeout(60_000);

describe('idle activity: real use keeps the pod up, and only real use does', () => {
  let stack: Stack;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  beforeAll(async () => {
    stack = await Stack.start({ name: 'idle-activity', idleMonitors: 1, env: FAST_IDLE_ENV });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function stopsOf(podId: string): Promise<string[]> {
    return (await actions(stack)).filter((a) => a.podId === podId).map((a) => `${a.action}:${a.trigger}`);
  }

  async function waitForStop(podId: string, timeoutMs = 15_000): Promise<void> {
    await waitForStopAndTick(stack, podId, timeoutMs);
  }

  async function readyPod(id: string, behaviour = 'normal'): Promise<{ since: number; ready: TickLine }> {
    const since = await emptyVolume(stack, monitors);
    await seedPod(stack, { id, status: 'RUNNING', vllmReady: true, behaviour });
    const ready = await waitForTick(
      monitors,
      (t) => (t.scheduledAt ?? t.at) > since && t.phase === 'Ready',
      10_000,
      `${id} ready`,
    );
    return { since, ready };
  }

  it('short chat turns that start and end between two ticks keep the pod up for as long as they continue (the counter, not the gauge)', async () => {
    const podId = 'chatty-pod';
    const { since, ready } = await readyPod(podId);

    // Two full windows of turns: each one is sent just after a tick and has ended long before the next.
    const turns: Array<{ after: TickLine; endedAt: number }> = [];
    let last = ready;
    for (let i = 0; i < 2 * WINDOW_TICKS; i++) {
      const previous = last;
      last = await waitForTick(monitors, (t) => t.at > previous.at, 5_000, 'the next tick');
      expect(await chat(stack, podId, 150)).toBe(200);
      turns.push({ after: last, endedAt: Date.now() });
    }
    const lastTurnEnded = turns[turns.length - 1].endedAt;
    await waitForStop(podId);

    const ticks = ticksSince(monitors(), since);
    const table = formatTicks(ticks);
    // Every turn had ended before the next tick scraped, so no scrape saw a request in flight.
    for (const turn of turns) {
      const next = ticks.find((t) => t.at > turn.after.at)!;
      expect(turn.endedAt).toBeLessThan(next.scheduledAt ?? next.at);
    }
    // The scrapes that followed the turns all read Busy: the streak never got past 0.
    const during = ticks.filter((t) => t.at > turns[0].after.at && t.at <= lastTurnEnded + 1_000);
    expect(during.length).toBeGreaterThanOrEqual(2 * WINDOW_TICKS - 1);
    expect(during.every((t) => t.signal === 'Busy' && t.idleStreak === 0 && t.phase === 'Ready')).toBe(true);
    // Once the turns stop, a full window of idle ticks stops the pod: one stop, trigger idle.
    const lastBusy = ticks.map((t) => t.signal).lastIndexOf('Busy');
    const stopIndex = ticks.findIndex((t, i) => i > lastBusy && t.phase === 'Down');
    expect(stopIndex - lastBusy).toBe(WINDOW_TICKS);
    expect(ticks.slice(lastBusy + 1, stopIndex + 1).every((t) => t.signal === 'Idle')).toBe(true);
    expect(await stopsOf(podId)).toEqual(['Stop:idle']);
    // The pod stayed up for the whole conversation: 12 s of turns against a 6 s window.
    expect(ticks[stopIndex].at - ready.at).toBeGreaterThan((2 * WINDOW_TICKS + WINDOW_TICKS - 1) * 1000);
    if (process.env.IDLE_E2E_TABLE) process.stdout.write(`\n${table}\n`);
  });

  it('the same turns are invisible to the gauge alone: a vLLM without work counters is stopped mid-conversation, on schedule', async () => {
    const podId = 'gauge-only-pod';
    const { since, ready } = await readyPod(podId, 'no-counters');
    let last = ready;
    let turns = 0;
    while ((await stopsOf(podId)).length === 0 && turns < 3 * WINDOW_TICKS) {
      const previous = last;
      last = await waitForTick(monitors, (t) => t.at > previous.at, 5_000, 'the next tick');
      if (last.phase === 'Down') break;
      await chat(stack, podId, 150);
      turns += 1;
    }
    await waitForStop(podId);
    const ticks = ticksSince(monitors(), since);
    const readyIndex = ticks.findIndex((t) => t.phase === 'Ready');
    const stopIndex = ticks.findIndex((t, i) => i > readyIndex && t.phase === 'Down');
    // Every scrape fell between turns and read Idle: stopped exactly a window after ready despite the use.
    expect(ticks.slice(readyIndex, stopIndex + 1).every((t) => t.signal === 'Idle')).toBe(true);
    expect(stopIndex - readyIndex).toBe(WINDOW_TICKS - 1);
    expect(turns).toBeGreaterThanOrEqual(WINDOW_TICKS - 2);
    expect(await stopsOf(podId)).toEqual(['Stop:idle']);
  });

  it('a generation lasting longer than the idle window never reads idle', async () => {
    const podId = 'long-gen-pod';
    const { since, ready } = await readyPod(podId);
    const generationMs = 10_000;
    const started = Date.now();
    expect(await chat(stack, podId, generationMs)).toBe(200);
    const ended = Date.now();
    expect(ended - started).toBeGreaterThanOrEqual(generationMs - 50);
    expect(await stopsOf(podId)).toEqual([]);
    await waitForStop(podId);

    const ticks = ticksSince(monitors(), since);
    const during = ticks.filter((t) => t.at > started + 500 && t.at < ended);
    expect(during.length).toBeGreaterThanOrEqual(WINDOW_TICKS + 2);
    expect(during.map((t) => `${t.signal}/${t.idleStreak}`)).toEqual(during.map(() => 'Busy/0'));
    // The stop came a full window after the generation, not a window after ready.
    const stopTick = ticks.find((t) => t.at > ready.at && t.phase === 'Down')!;
    expect(stopTick.at).toBeGreaterThan(ended + (WINDOW_TICKS - 1) * 1000);
    expect((await stopCalls(stack)).map(podIdOfCall)).toEqual([podId]);
  });

  it('flapping /metrics does not keep an idle pod up forever: the baseline survives the dark ticks and the streak completes', async () => {
    const podId = 'flapping-idle-pod';
    const since = await emptyVolume(stack, monitors);
    await seedPod(stack, { id: podId, status: 'RUNNING', vllmReady: true, behaviour: 'flapping' });
    await waitForStop(podId);

    const ticks = ticksSince(monitors(), since);
    const readyIndex = ticks.findIndex((t) => t.phase === 'Ready');
    const stopIndex = ticks.findIndex((t, i) => i > readyIndex && t.phase === 'Down');
    const inReady = ticks.slice(readyIndex + 1, stopIndex);
    // The ready tick seeds; after it every tick accrues, dark (502) or idle alike.
    expect(new Set(inReady.map((t) => t.signal))).toEqual(new Set(['UnreachableButRunning', 'Idle']));
    expect(inReady.map((t) => t.idleStreak)).toEqual([1, 2, 3, 4, 5]);
    expect(stopIndex - readyIndex).toBe(WINDOW_TICKS);
    expect(await stopsOf(podId)).toEqual(['Stop:idle']);
  });

  it('flapping /metrics does not stop a busy pod early: a dark tick accrues one, the next busy scrape resets it', async () => {
    const podId = 'flapping-busy-pod';
    const { since, ready } = await readyPod(podId);
    await setVllm(stack, podId, 'flapping');
    const generationMs = 2 * WINDOW_TICKS * 1000;
    const started = Date.now();
    expect(await chat(stack, podId, generationMs)).toBe(200);
    const ended = Date.now();

    const during = ticksSince(monitors(), since).filter(
      (t) => t.at > Math.max(started, ready.at) + 500 && t.at < ended,
    );
    expect(during.length).toBeGreaterThanOrEqual(2 * WINDOW_TICKS - 2);
    expect(new Set(during.map((t) => t.signal))).toEqual(new Set(['UnreachableButRunning', 'Busy']));
    expect(Math.max(...during.map((t) => t.idleStreak))).toBe(1);
    expect(during.every((t) => t.phase === 'Ready')).toBe(true);
    expect(await stopsOf(podId)).toEqual([]);
  });
});
