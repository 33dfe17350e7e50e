import type { StreamOpening } from '../gateway/gateway-client';
import { httpAnswer, networkFailure } from '../gateway/gateway-answer';
import { FakeClock } from '../testing/fake-clock';
import { followEvents, MAX_RECONNECT_FAILURES } from './event-follower';

function stream(...chunks: string[]): StreamOpening {
  return {
    kind: 'stream',
    chunks: (async function* () {
      for (const chunk of chunks) yield chunk;
    })(),
    close: () => undefined,
  };
}

function follow(openings: StreamOpening[]) {
  const clock = new FakeClock();
  const lastIds: Array<string | null> = [];
  const seen: string[] = [];
  const notes: string[] = [];
  const stop = new AbortController();
  const open = async (lastEventId: string | null) => {
    lastIds.push(lastEventId);
    return openings.length > 1 ? openings.shift()! : openings[0];
  };
  const ended = clock.drive(
    followEvents(
      open,
      clock,
      {
        onEvent: (event) => seen.push(`${event.id}:${event.data}`),
        onConnected: (reconnect) => notes.push(reconnect ? 'reconnected' : 'connected'),
        onDisconnected: (reason) => notes.push(reason),
      },
      stop.signal,
    ),
  );
  return { ended, lastIds, seen, notes, stop };
}

const notFound = { kind: 'answer', answer: httpAnswer(404, { title: 'Not Found', status: 404 }) } as const;

describe(followEvents.name, () => {
  it('reconnects after a drop with the last event id, and delivers every event once', async () => {
    const { ended, lastIds, seen, notes } = follow([
      stream('id: 1\ndata: a\n\n', 'id: 2\ndata: b\n\n'),
      stream('id: 3\ndata: c\n\n'),
      notFound,
    ]);
    await expect(ended).resolves.toMatchObject({ kind: 'not-a-stream', connectedBefore: true });
    expect(lastIds).toEqual([null, '2', '3']);
    expect(seen).toEqual(['1:a', '2:b', '3:c']);
    expect(notes.slice(0, 3)).toEqual(['connected', 'the event stream ended', 'reconnected']);
  });

  it('a first answer that is not a stream ends it at once (the caller decides: polling, or an error)', async () => {
    const { ended, lastIds } = follow([{ kind: 'answer', answer: networkFailure('ECONNREFUSED') }]);
    await expect(ended).resolves.toMatchObject({ kind: 'not-a-stream', connectedBefore: false });
    expect(lastIds).toEqual([null]);
  });

  it('after a stream was open, network errors and 5xx are retried, a bounded number of times in a row', async () => {
    const { ended, lastIds } = follow([
      stream('data: x\n\n'),
      { kind: 'answer', answer: httpAnswer(502, undefined, 'text/html') },
    ]);
    await expect(ended).resolves.toMatchObject({ kind: 'gave-up' });
    expect(lastIds).toHaveLength(MAX_RECONNECT_FAILURES);
  });

  it('streams that close without a byte count as failures too, so a broken route cannot loop forever', async () => {
    const { ended, lastIds } = follow([stream()]);
    await expect(ended).resolves.toMatchObject({ kind: 'gave-up' });
    expect(lastIds).toHaveLength(MAX_RECONNECT_FAILURES);
  });
});
