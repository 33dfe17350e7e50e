import { parseConfig, type PodConfig } from '@podwarden/policies';
import type { PodEventPublisher } from '@podwarden/platform';
import { captureLogs } from '@podwarden/testing';
import { HeldRequests, type HoldEnding } from './held-requests';
import type { PodReadiness, Readiness } from './pod-readiness';
import type { ProxyWakes, WakeEnding } from './proxy-wakes';

const parsed = parseConfig({ RUNPOD_API_KEY: 'k', RUNPOD_VOLUME_ID: 'vol-1' }, null);
if (!parsed.ok) throw new Error(parsed.error);
const POD: PodConfig = parsed.config.pods[0];

/** Readiness and wake endings the test sets by hand; the events published, in order. */
class Fakes {
  readiness: Readiness = { kind: 'cold', phase: 'Down' };
  ending: WakeEnding | null = null;
  ensured = 0;
  readonly events: Record<string, unknown>[] = [];

  build(): HeldRequests {
    const readiness = { read: () => Promise.resolve(this.readiness) } as unknown as PodReadiness;
    const wakes = {
      ensure: () => {
        this.ensured += 1;
        return Promise.resolve('attempt-1');
      },
      ending: () => Promise.resolve(this.ending),
    } as unknown as ProxyWakes;
    const events = {
      publish: (_pod: string, _type: string, data: Record<string, unknown>) => {
        this.events.push(data);
        return Promise.resolve('1-0');
      },
    } as unknown as PodEventPublisher;
    return new HeldRequests(readiness, wakes, captureLogs().logger, events);
  }
}

describe(HeldRequests.name, () => {
  let fakes: Fakes;
  let sut: HeldRequests;
  beforeEach(() => {
    fakes = new Fakes();
    sut = fakes.build();
  });
  afterEach(() => sut.onModuleDestroy());

  it('releases every held request in arrival order once the model is ready, and announces it once', async () => {
    const order: number[] = [];
    const holds = [1, 2, 3].map((n) =>
      sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1').then((ending) => {
        order.push(n);
        return ending;
      }),
    );
    expect(sut.count(POD)).toBe(3);
    fakes.readiness = { kind: 'ready', baseUrl: 'http://pod' };
    const endings = await Promise.all(holds);
    expect(endings).toEqual(Array(3).fill({ kind: 'ready', baseUrl: 'http://pod' }));
    expect(order).toEqual([1, 2, 3]);
    expect(sut.count(POD)).toBe(0);
    expect(fakes.events).toEqual([{ action: 'released', requests: 3 }]);
  });

  it('a client that leaves while held is dropped: the others still wait, nothing else happens', async () => {
    const leaving = new AbortController();
    const left = sut.hold(POD, 60_000, leaving.signal, 'attempt-1');
    const staying = sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1');
    leaving.abort();
    expect(await left).toEqual({ kind: 'aborted' });
    expect(sut.count(POD)).toBe(1);
    expect(fakes.events).toEqual([]);
    fakes.readiness = { kind: 'ready', baseUrl: 'http://pod' };
    expect(await staying).toEqual({ kind: 'ready', baseUrl: 'http://pod' });
  });

  it('a refused wake releases the held requests with its reason, and asks for no other wake', async () => {
    const held = sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1');
    fakes.ending = {
      outcome: 'Failed',
      failureKind: 'refused',
      message: 'the daily budget of 5.00 USD is spent',
    };
    const ending: HoldEnding = await held;
    expect(ending).toEqual({
      kind: 'failed',
      refused: true,
      message: 'the daily budget of 5.00 USD is spent',
    });
    expect(fakes.events).toEqual([
      { action: 'failed', requests: 1, reason: 'the daily budget of 5.00 USD is spent' },
    ]);
    // A new wake would be refused the same way: the proxy must not ask again and again while it holds.
    expect(fakes.ensured).toBe(0);
  });

  it('a wake that ended well keeps the requests held until the model is ready or their deadline passes', async () => {
    fakes.ending = { outcome: 'Started', failureKind: null, message: 'started' };
    const ending = await sut.hold(POD, 300, new AbortController().signal, 'attempt-1');
    expect(ending).toEqual({ kind: 'timeout' });
    expect(fakes.ensured).toBeGreaterThan(0);
    expect(fakes.events).toEqual([{ action: 'timeout', requests: 1 }]);
  });
});
