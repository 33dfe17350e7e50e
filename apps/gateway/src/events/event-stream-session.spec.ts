import type { PodEvent } from '@podwarden/platform';
import { EventStreamSession } from './event-stream-session';

const event = (id: string, type = 'phase'): PodEvent => ({ id, type, data: { pod: 'qwen', n: id } });

function sessionWith(lastEventId: string | null) {
  const frames: string[] = [];
  let ended = false;
  const session = new EventStreamSession(
    { write: (f) => frames.push(f), end: () => (ended = true) },
    lastEventId,
    { heartbeatMs: 60_000, retryMs: 3_000 },
  );
  const ids = () => frames.flatMap((f) => /^id: (.+)$/m.exec(f)?.[1] ?? []);
  return { session, frames, ids, ended: () => ended };
}

describe(EventStreamSession.name, () => {
  it('opens with retry and a comment, then every event with id, event and one data line', () => {
    const { session, frames } = sessionWith(null);
    session.open([]);
    session.deliver(event('5-0', 'stop'));
    session.close();
    expect(frames).toEqual([
      'retry: 3000\n: connected\n\n',
      'id: 5-0\nevent: stop\ndata: {"pod":"qwen","n":"5-0"}\n\n',
    ]);
  });

  it('replays from a valid Last-Event-ID, then what arrived during the replay, each once and in order', () => {
    const { session, ids } = sessionWith('3-0');
    expect(session.replayFrom).toBe('3-0');
    // Live events published while the replay was read: one of them is also in the replay.
    session.deliver(event('5-0'));
    session.deliver(event('6-0'));
    session.open([event('4-0'), event('5-0')]);
    session.deliver(event('6-0'));
    session.deliver(event('7-0'));
    session.close();
    expect(ids()).toEqual(['4-0', '5-0', '6-0', '7-0']);
  });

  it('ignores a Last-Event-ID that is not a stream id: live events only', () => {
    const { session, ids } = sessionWith('not-an-id');
    expect(session.replayFrom).toBeNull();
    session.open([]);
    session.deliver(event('1-0'));
    session.close();
    expect(ids()).toEqual(['1-0']);
  });

  it('sends nothing after close, and ends the response once', () => {
    const { session, ids, ended } = sessionWith(null);
    session.open([]);
    session.close();
    session.close();
    session.deliver(event('9-0'));
    expect(ids()).toEqual([]);
    expect(ended()).toBe(true);
  });

  it('writes a heartbeat comment on its cadence', () => {
    jest.useFakeTimers();
    try {
      const frames: string[] = [];
      const session = new EventStreamSession({ write: (f) => frames.push(f), end: () => undefined }, null, {
        heartbeatMs: 1_000,
        retryMs: 3_000,
      });
      session.open([]);
      jest.advanceTimersByTime(2_500);
      session.close();
      jest.advanceTimersByTime(5_000);
      expect(frames.filter((f) => f.startsWith(': heartbeat '))).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
