import { INITIAL_IDLE_STATE, type IdleAdvance, type StopReason } from '@podwarden/policies';
import { LEVEL, captureLogs } from '@podwarden/testing';
import { holdForKeepAlive, readKeepAlive, type KeepAliveReader } from './keep-alive-reading';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const TIMEOUT_MS = 20;

/** A keep-alive store answering `answer` and recording what it was asked. */
function reader(answer: () => Promise<number | null>) {
  const asked: Array<[string, number]> = [];
  const store: KeepAliveReader = {
    get: (podName: string, now: number) => {
      asked.push([podName, now]);
      return answer();
    },
  };
  return { store, asked };
}

function advance(stop: StopReason | null): IdleAdvance {
  return {
    state: { ...INITIAL_IDLE_STATE, phase: 'Ready', idleStreak: 5, bootingTicks: 2, lastTickAt: NOW },
    stop,
    becameReady: false,
    startupAfterReady: false,
  };
}

describe('readKeepAlive', () => {
  it("answers the store's deadline, asked for the pod on this monitor's clock, with no line", async () => {
    const logs = captureLogs();
    const { store, asked } = reader(() => Promise.resolve(NOW + 5_000));
    await expect(readKeepAlive(store, 'qwen', NOW, TIMEOUT_MS, logs.logger)).resolves.toBe(NOW + 5_000);
    expect(asked).toEqual([['qwen', NOW]]);
    expect(logs.lines).toEqual([]);
  });

  it('none set answers null, with no line', async () => {
    const logs = captureLogs();
    const { store } = reader(() => Promise.resolve(null));
    await expect(readKeepAlive(store, 'qwen', NOW, TIMEOUT_MS, logs.logger)).resolves.toBeNull();
    expect(logs.lines).toEqual([]);
  });

  it.each<[string, () => Promise<number | null>, string]>([
    ['a failed read', () => Promise.reject(new Error('READONLY')), 'READONLY'],
    [
      'a read that does not answer in time',
      () => new Promise<never>(() => undefined),
      'keep-alive read timed out after 20 ms',
    ],
  ])('%s is one Warning and reads as not set', async (_name, answer, err) => {
    const logs = captureLogs();
    const { store } = reader(answer);
    await expect(readKeepAlive(store, 'qwen', NOW, TIMEOUT_MS, logs.logger)).resolves.toBeNull();
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.warn,
        pod: 'qwen',
        err,
        msg: 'keep-alive unreadable; treating it as not set',
      }),
    ]);
  });
});

describe('holdForKeepAlive', () => {
  it.each<[StopReason | null]>([[null], ['boot-grace'], ['runtime-cap'], ['restart-loop']])(
    'a tick whose stop is %s never reads the keep-alive: the advance is answered as it came',
    async (stop) => {
      const logs = captureLogs();
      const { store, asked } = reader(() => Promise.resolve(NOW + 60_000));
      const given = advance(stop);
      const held = await holdForKeepAlive(store, 'qwen', given, NOW, {
        timeoutMs: TIMEOUT_MS,
        logger: logs.logger,
      });
      expect(held).toBe(given);
      expect(asked).toEqual([]);
      expect(logs.lines).toEqual([]);
    },
  );

  it('a keep-alive later than now holds an idle stop off: no stop, the idle streak restarted, one Information line', async () => {
    const logs = captureLogs();
    const until = NOW + 90_000;
    const { store, asked } = reader(() => Promise.resolve(until));
    const given = advance('idle');
    const held = await holdForKeepAlive(store, 'qwen', given, NOW, {
      timeoutMs: TIMEOUT_MS,
      logger: logs.logger,
    });
    expect(asked).toEqual([['qwen', NOW]]);
    expect(held).toEqual({ ...given, stop: null, state: { ...given.state, idleStreak: 0 } });
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.info,
        pod: 'qwen',
        keepAliveUntil: '2026-12-01T12:01:30.000Z',
        // The streak that would have stopped the pod, before it restarted.
        idleStreak: 5,
        msg: 'idle stop held off by keep-alive until 2026-12-01T12:01:30.000Z',
      }),
    ]);
  });

  it.each<[string, () => Promise<number | null>, number]>([
    ['none set', () => Promise.resolve(null), 0],
    ['one that ends now', () => Promise.resolve(NOW), 0],
    ['one that ended', () => Promise.resolve(NOW - 1), 0],
    ['an unreadable one', () => Promise.reject(new Error('down')), 1],
  ])('%s lets the idle stop through, with no hold line', async (_name, answer, warnings) => {
    const logs = captureLogs();
    const { store } = reader(answer);
    const given = advance('idle');
    const held = await holdForKeepAlive(store, 'qwen', given, NOW, {
      timeoutMs: TIMEOUT_MS,
      logger: logs.logger,
    });
    expect(held).toEqual(given);
    expect(held.stop).toBe('idle');
    expect(logs.messages('info')).toEqual([]);
    expect(logs.messages('warn')).toHaveLength(warnings);
  });
});
