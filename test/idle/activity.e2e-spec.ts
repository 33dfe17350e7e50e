import { Stack } from '../support/stack';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  actions,
  chat,
  emptyVolume,
  formatTicks,
  holdChat,
  nextTick,
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
 * tick, so a turn that begins and ends between two scrapes is only visible in
 * the work counter; a generation longer than the window is only visible in
 * the gauge. Short turns here take no simulated time at all (they end the
 * moment they start, so no scrape can catch one in flight), and a long
 * generation is held in flight until the spec has seen the ticks it needs:
 * the specs wait for ticks and assert their order and count, never a duration.
 */

jest.setTimeout(240_000);

interface Turn {
  /** The tick the turn was sent after (so after that tick's scrape). */
  readonly after: TickLine;
  readonly endedAt: number;
}

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

  async function waitForStop(podId: string): Promise<void> {
    await waitForStopAndTick(stack, podId, EVENT_DEADLINE_MS);
  }

  async function readyPod(id: string, behaviour = 'normal'): Promise<{ since: number; ready: TickLine }> {
    const since = await emptyVolume(stack, monitors);
    await seedPod(stack, { id, status: 'RUNNING', vllmReady: true, behaviour });
    const ready = await waitForTick(
      monitors,
      (t) => (t.scheduledAt ?? t.at) > since && t.phase === 'Ready',
      EVENT_DEADLINE_MS,
      `${id} ready`,
    );
    return { since, ready };
  }

  /** One instant turn after each of the next `count` ticks (or until `until` says stop). */
  async function turnsAfterTicks(
    podId: string,
    from: TickLine,
    count: number,
    until: (tick: TickLine) => boolean = () => false,
  ): Promise<Turn[]> {
    const turns: Turn[] = [];
    let last = from;
    while (turns.length < count) {
      last = await nextTick(monitors, last);
      if (until(last)) break;
      expect(await chat(stack, podId, 0)).toBe(200);
      turns.push({ after: last, endedAt: Date.now() });
    }
    return turns;
  }

  /** The first tick scheduled after the turn ended: its scrape certainly came after the turn. */
  function tickAfter(ticks: readonly TickLine[], turn: Turn): TickLine | undefined {
    return ticks.find((t) => t.scheduledAt! > turn.endedAt);
  }

  it('short chat turns that start and end between two ticks keep the pod up for as long as they continue (the counter, not the gauge)', async () => {
    const podId = 'chatty-pod';
    const { since, ready } = await readyPod(podId);
    // Two windows' worth of ticks, each followed by a turn.
    const turns = await turnsAfterTicks(podId, ready, 2 * WINDOW_TICKS);
    const lastTurnEnded = turns[turns.length - 1].endedAt;
    await waitForStop(podId);

    const ticks = ticksSince(monitors(), since);
    const table = formatTicks(ticks);
    // The scrape that followed each turn read Busy (the counter moved; nothing was ever in flight).
    for (const turn of turns) {
      expect(tickAfter(ticks, turn)).toMatchObject({ signal: 'Busy', idleStreak: 0, phase: 'Ready' });
    }
    // The conversation spanned more ticks than the window, and the pod was not stopped while it went on.
    const stopIndex = ticks.findIndex((t) => t.at > ready.at && t.phase === 'Down');
    expect(ticks[stopIndex].scheduledAt!).toBeGreaterThan(lastTurnEnded);
    // Once the turns stop, a full window of idle ticks stops the pod: one stop, trigger idle.
    const lastBusy = ticks.map((t) => t.signal).lastIndexOf('Busy');
    expect(ticks[lastBusy]).toBe(tickAfter(ticks, turns[turns.length - 1]));
    expect(stopIndex - lastBusy).toBe(WINDOW_TICKS);
    expect(ticks.slice(lastBusy + 1, stopIndex + 1).every((t) => t.signal === 'Idle')).toBe(true);
    expect(await stopsOf(podId)).toEqual(['Stop:idle']);
    if (process.env.IDLE_E2E_TABLE) process.stdout.write(`\n${table}\n`);
  });

  it('the same turns are invisible to the gauge alone: a vLLM without work counters is stopped mid-conversation, on schedule', async () => {
    const podId = 'gauge-only-pod';
    const { since, ready } = await readyPod(podId, 'no-counters');
    const turns = await turnsAfterTicks(podId, ready, 3 * WINDOW_TICKS, (tick) => tick.phase === 'Down');
    await waitForStop(podId);
    const ticks = ticksSince(monitors(), since);
    const readyIndex = ticks.findIndex((t) => t.phase === 'Ready');
    const stopIndex = ticks.findIndex((t, i) => i > readyIndex && t.phase === 'Down');
    // Every scrape read Idle: stopped exactly a window after ready despite the use.
    expect(ticks.slice(readyIndex, stopIndex + 1).every((t) => t.signal === 'Idle')).toBe(true);
    expect(stopIndex - readyIndex).toBe(WINDOW_TICKS - 1);
    // Turns were made inside that window, each seen by a later scrape that still read Idle.
    const inWindow = turns.filter((turn) => turn.endedAt < ticks[stopIndex].scheduledAt!);
    expect(inWindow.length).toBeGreaterThanOrEqual(2);
    expect(await stopsOf(podId)).toEqual(['Stop:idle']);
  });

  it('a generation lasting longer than the idle window never reads idle', async () => {
    const podId = 'long-gen-pod';
    const { since, ready } = await readyPod(podId);
    const generation = await holdChat(stack, podId);
    // Held in flight for more ticks than the window has.
    await waitForTick(
      monitors,
      (t) => ticksSince(monitors(), generation.inFlightAt).length >= WINDOW_TICKS + 2 && t.at > ready.at,
      EVENT_DEADLINE_MS,
      'a window and more of ticks during the generation',
    );
    expect(await stopsOf(podId)).toEqual([]);
    const { status, endedAt } = await generation.finish();
    expect(status).toBe(200);
    await waitForStop(podId);

    const ticks = ticksSince(monitors(), since);
    const during = ticks.filter((t) => t.scheduledAt! > generation.inFlightAt && t.at < endedAt);
    expect(during.length).toBeGreaterThanOrEqual(WINDOW_TICKS + 2);
    expect(during.map((t) => `${t.signal}/${t.idleStreak}`)).toEqual(during.map(() => 'Busy/0'));
    // The stop came a full window after the generation, not a window after ready.
    const lastBusy = ticks.map((t) => t.signal).lastIndexOf('Busy');
    const stopIndex = ticks.findIndex((t, i) => i > lastBusy && t.phase === 'Down');
    expect(stopIndex - lastBusy).toBe(WINDOW_TICKS);
    expect(ticks[stopIndex].scheduledAt!).toBeGreaterThan(endedAt);
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
    const { since } = await readyPod(podId);
    await setVllm(stack, podId, 'flapping');
    const generation = await holdChat(stack, podId);
    // Held in flight for two windows of ticks: long enough to be stopped twice over if dark ticks counted.
    await waitForTick(
      monitors,
      () => ticksSince(monitors(), generation.inFlightAt).length >= 2 * WINDOW_TICKS,
      EVENT_DEADLINE_MS,
      'two windows of ticks during the generation',
    );
    const { status, endedAt } = await generation.finish();
    expect(status).toBe(200);

    const during = ticksSince(monitors(), since).filter(
      (t) => t.scheduledAt! > generation.inFlightAt && t.at < endedAt,
    );
    expect(during.length).toBeGreaterThanOrEqual(2 * WINDOW_TICKS);
    expect(new Set(during.map((t) => t.signal))).toEqual(new Set(['UnreachableButRunning', 'Busy']));
    expect(Math.max(...during.map((t) => t.idleStreak))).toBe(1);
    expect(during.every((t) => t.phase === 'Ready')).toBe(true);
    expect(await stopsOf(podId)).toEqual([]);
  });
});
