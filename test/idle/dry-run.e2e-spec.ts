import { Stack } from '../support/stack';
import {
  FAST_IDLE_ENV,
  actions,
  emptyVolume,
  messagesWith,
  seedPod,
  simPod,
  stopCalls,
  tickLines,
  waitFor,
  waitForTick,
  WINDOW_TICKS,
  EVENT_DEADLINE_MS,
  type TickLine,
} from './support/idle-harness';

jest.setTimeout(180_000);

describe('IDLE_DRY_RUN=true', () => {
  let stack: Stack;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'idle-dry-run',
      idleMonitors: 1,
      env: { ...FAST_IDLE_ENV, IDLE_DRY_RUN: 'true' },
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('logs "would stop <podId> (idle)" when the window is up, calls nothing, records no Stop, and waits a full window before saying it again', async () => {
    // Written at bootstrap, but the child's stdout reaches this process on its own schedule.
    const banner = await waitFor(async () => {
      const lines = messagesWith(monitors(), 'IDLE_DRY_RUN=true');
      return lines.length > 0 ? lines : undefined;
    }, 'the dry-run warning');
    expect(banner).toHaveLength(1);
    const since = await emptyVolume(stack, monitors);
    const podId = await seedPod(stack, { id: 'dry-run-pod', status: 'RUNNING', vllmReady: true });
    // The "would stop" warning is written before its tick's line: wait for the tick line itself.
    const isNotice = (t: TickLine): boolean =>
      (t.scheduledAt ?? t.at) > since && t.phase === 'Ready' && t.idleStreak === 0 && t.signal === 'Idle';
    const first = await waitForTick(monitors, isNotice, EVENT_DEADLINE_MS, 'the first would-stop tick');
    // The "stop" tick reset only the streak: still Ready, and a second full window leads to a second notice.
    await waitForTick(
      monitors,
      (t) => t.at > first.at && isNotice(t),
      EVENT_DEADLINE_MS,
      'a second would-stop tick',
    );
    // Stopped (gracefully) so the tick lines and the warnings read below are the same finished set.
    expect(await stack.idleMonitors[0].stop()).toBe(0);
    const ticks = tickLines(monitors()).filter((t) => (t.scheduledAt ?? t.at) > since);
    const readyIndex = ticks.findIndex((t) => t.phase === 'Ready');
    const notices = ticks
      .map((t, i) => ({ t, i }))
      .filter(({ t }) => t.signal === 'Idle' && t.idleStreak === 0);
    expect(notices.map(({ i }) => i - readyIndex).slice(0, 2)).toEqual([WINDOW_TICKS, 2 * WINDOW_TICKS]);
    expect(ticks.every((t) => t.phase !== 'Down')).toBe(true);
    // One warning per notice tick.
    expect(messagesWith(monitors(), `would stop ${podId} (idle)`).length).toBe(notices.length);

    expect(await stopCalls(stack)).toEqual([]);
    expect((await actions(stack)).filter((a) => a.action === 'Stop')).toEqual([]);
    expect((await simPod(stack, podId)).status).toBe('RUNNING');
    // Ready was logged once for this boot, not once per notice.
    expect(messagesWith(monitors(), `pod ${podId} ready after`)).toHaveLength(1);
  });
});
