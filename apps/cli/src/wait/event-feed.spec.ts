import type { StreamOpening } from '../gateway/gateway-client';
import { FakeClock } from '../testing/fake-clock';
import { POLL_INTERVAL_MS, SAFETY_READ_INTERVAL_MS } from './change-feed';
import { EventFeed } from './event-feed';

/** A stream the test feeds by hand. */
function manualStream() {
  const pending: string[] = [];
  let wake: (() => void) | null = null;
  let closed = false;
  const opening: StreamOpening = {
    kind: 'stream',
    chunks: (async function* () {
      while (!closed) {
        if (pending.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        while (pending.length > 0) yield pending.shift()!;
      }
    })(),
    close: () => {
      closed = true;
      wake?.();
    },
  };
  return {
    opening,
    send: (chunk: string) => {
      pending.push(chunk);
      wake?.();
    },
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe(EventFeed.name, () => {
  it('an event makes a read due at once; without events the next read waits for the safety interval', async () => {
    const clock = new FakeClock();
    const live = manualStream();
    const sut = new EventFeed(
      clock,
      async () => live.opening,
      () => undefined,
    );
    const signal = new AbortController().signal;
    await flush();
    await sut.next(600_000, signal); // connecting makes one read due
    const started = clock.now();

    let woke = false;
    const next = sut.next(600_000, signal).then(() => (woke = true));
    await flush();
    clock.advance(POLL_INTERVAL_MS);
    await flush();
    expect(woke).toBe(false);
    live.send('id: 1\ndata: {}\n\n');
    await next;
    expect(clock.now() - started).toBe(POLL_INTERVAL_MS);

    const quiet = sut.next(600_000, signal);
    await clock.drive(quiet);
    expect(clock.now() - started).toBe(POLL_INTERVAL_MS + SAFETY_READ_INTERVAL_MS);
    sut.close();
  });

  it('once the stream is gone it falls back to the polling cadence', async () => {
    const clock = new FakeClock();
    const sut = new EventFeed(
      clock,
      async () => ({
        kind: 'answer',
        answer: { kind: 'http', status: 404, contentType: '', body: undefined },
      }),
      () => undefined,
    );
    await sut.ended;
    const started = clock.now();
    await clock.drive(sut.next(600_000, new AbortController().signal));
    expect(clock.now() - started).toBe(POLL_INTERVAL_MS);
  });
});
