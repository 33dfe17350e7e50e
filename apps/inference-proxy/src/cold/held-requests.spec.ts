import { getEventListeners } from 'node:events';
import { parseConfig, type PodConfig } from '@podwarden/policies';
import type { PodEventPublisher } from '@podwarden/platform';
import { LEVEL, captureLogs } from '@podwarden/testing';
import { HOLD_POLL_MS, HeldRequests, type HoldEnding } from './held-requests';
import type { PodReadiness, Readiness } from './pod-readiness';
import type { ProxyWakes, WakeEnding } from './proxy-wakes';

const parsed = parseConfig({ RUNPOD_API_KEY: 'k', RUNPOD_VOLUME_ID: 'vol-1' }, null);
if (!parsed.ok) throw new Error(parsed.error);
const POD: PodConfig = parsed.config.pods[0];

/** Readiness and wake endings the test sets by hand; the events published, in order. */
class Fakes {
  readiness: Readiness = { kind: 'cold', phase: 'Down' };
  readinessFails = false;
  ending: WakeEnding | null = null;
  /** Endings by attempt id, ahead of `ending`. */
  readonly endings = new Map<string, WakeEnding | null>();
  ensured = 0;
  /** Readiness reads so far: one per look at the pod. */
  reads = 0;
  current = 'attempt-1';
  readonly events: Record<string, unknown>[] = [];
  readonly logs = captureLogs();

  build(): HeldRequests {
    const readiness = {
      read: () => {
        this.reads += 1;
        return this.readinessFails
          ? Promise.reject(new Error('redis down'))
          : Promise.resolve(this.readiness);
      },
    } as unknown as PodReadiness;
    const wakes = {
      ensure: () => {
        this.ensured += 1;
        return Promise.resolve(this.current);
      },
      ending: (attemptId: string) =>
        Promise.resolve(this.endings.has(attemptId) ? (this.endings.get(attemptId) ?? null) : this.ending),
    } as unknown as ProxyWakes;
    const events = {
      publish: (_pod: string, _type: string, data: Record<string, unknown>) => {
        this.events.push(data);
        return Promise.resolve('1-0');
      },
    } as unknown as PodEventPublisher;
    return new HeldRequests(readiness, wakes, this.logs.logger, events);
  }
}

/** The hold's ending once it has one: undefined while the request is still held. */
function watch(held: Promise<HoldEnding>): () => HoldEnding | undefined {
  let ending: HoldEnding | undefined;
  void held.then((settled) => (ending = settled));
  return () => ending;
}

const READY: Readiness = { kind: 'ready', baseUrl: 'http://pod' };

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

  it('counts the requests held per pod, whatever the case of its name', () => {
    void sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1');
    void sut.hold(
      { ...POD, name: POD.name.toUpperCase() },
      60_000,
      new AbortController().signal,
      'attempt-1',
    );
    expect(sut.count(POD)).toBe(2);
    expect(sut.count({ ...POD, name: 'other' })).toBe(0);
  });

  it('a client already gone when it arrives is dropped at once', async () => {
    const gone = new AbortController();
    gone.abort();
    expect(await sut.hold(POD, 60_000, gone.signal, 'attempt-1')).toEqual({ kind: 'aborted' });
    expect(sut.count(POD)).toBe(0);
  });

  it('only the requests past their own deadline time out; the others keep waiting', async () => {
    const short = sut.hold(POD, 100, new AbortController().signal, 'attempt-1');
    const long = sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1');
    expect(await short).toEqual({ kind: 'timeout' });
    expect(sut.count(POD)).toBe(1);
    expect(fakes.events).toEqual([{ action: 'timeout', requests: 1 }]);
    fakes.readiness = { kind: 'ready', baseUrl: 'http://pod' };
    expect(await long).toEqual({ kind: 'ready', baseUrl: 'http://pod' });
    expect(fakes.events).toEqual([
      { action: 'timeout', requests: 1 },
      { action: 'released', requests: 1 },
    ]);
  });

  it('a readiness it cannot read is one Warning per look; the requests wait for the next look', async () => {
    fakes.readinessFails = true;
    const held = sut.hold(POD, 300, new AbortController().signal, 'attempt-1');
    expect(await held).toEqual({ kind: 'timeout' });
    const warnings = fakes.logs.lines.filter((l) => l.level === LEVEL.warn);
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings[0]).toEqual(
      expect.objectContaining({
        pod: POD.name,
        err: 'redis down',
        msg: 'held requests: readiness unreadable',
      }),
    );
  });

  it('a failed wake releases only its own requests; those of another wake keep waiting', async () => {
    fakes.endings.set('attempt-2', null);
    const first = sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1');
    const second = sut.hold(POD, 60_000, new AbortController().signal, 'attempt-2');
    fakes.endings.set('attempt-1', { outcome: 'Failed', failureKind: 'provider', message: 'no GPU' });
    expect(await first).toEqual({ kind: 'failed', refused: false, message: 'no GPU' });
    expect(sut.count(POD)).toBe(1);
    fakes.readiness = { kind: 'ready', baseUrl: 'http://pod' };
    expect(await second).toEqual({ kind: 'ready', baseUrl: 'http://pod' });
  });

  it("after a wake that ended well the requests follow the pod's current wake, and its failure releases them", async () => {
    fakes.endings.set('attempt-1', { outcome: 'Started', failureKind: null, message: 'started' });
    fakes.current = 'attempt-2';
    fakes.endings.set('attempt-2', null);
    const held = sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1');
    while (fakes.ensured === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    fakes.endings.set('attempt-2', { outcome: 'Failed', failureKind: 'refused', message: 'budget spent' });
    expect(await held).toEqual({ kind: 'failed', refused: true, message: 'budget spent' });
  });

  it('a shutdown ends every held request as a timeout', async () => {
    const held = [
      sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1'),
      sut.hold({ ...POD, name: 'other' }, 60_000, new AbortController().signal, 'attempt-1'),
    ];
    sut.onModuleDestroy();
    expect(await Promise.all(held)).toEqual([{ kind: 'timeout' }, { kind: 'timeout' }]);
  });

  it('a request that arrives after the shutdown ends at once as a timeout, held by nobody', async () => {
    sut.onModuleDestroy();
    fakes.readiness = { kind: 'ready', baseUrl: 'http://pod' };

    expect(await sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1')).toEqual({
      kind: 'timeout',
    });
    expect(sut.count(POD)).toBe(0);
    expect(fakes.events).toEqual([]);
  });

  it('holds again after every earlier request was released (a new look starts)', async () => {
    fakes.readiness = { kind: 'ready', baseUrl: 'http://pod' };
    expect(await sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1')).toEqual({
      kind: 'ready',
      baseUrl: 'http://pod',
    });
    fakes.readiness = { kind: 'cold', phase: 'Booting' };
    const again = sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1');
    fakes.readiness = { kind: 'ready', baseUrl: 'http://pod-2' };
    expect(await again).toEqual({ kind: 'ready', baseUrl: 'http://pod-2' });
  });

  describe('on a clock the spec moves', () => {
    // Only the sleep between looks and Date.now are faked: the spec moves them instead of waiting.
    beforeEach(() =>
      jest.useFakeTimers({
        now: 1_700_000_000_000,
        doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'],
      }),
    );
    afterEach(() => jest.useRealTimers());

    it.each<[string, number, () => void, HoldEnding]>([
      ['ready', 60_000, () => (fakes.readiness = READY), READY],
      [
        'failed',
        60_000,
        () => (fakes.ending = { outcome: 'Failed', failureKind: 'provider', message: 'no GPU' }),
        { kind: 'failed', refused: false, message: 'no GPU' },
      ],
      ['timeout', 100, () => undefined, { kind: 'timeout' }],
      ['shutdown', 60_000, () => sut.onModuleDestroy(), { kind: 'timeout' }],
    ])(
      "a long-lived client's signal keeps no abort listener once its hold ended: %s",
      async (_case, holdMs, end, expected) => {
        const client = new AbortController();
        const held = sut.hold(POD, holdMs, client.signal, 'attempt-1');
        expect(getEventListeners(client.signal, 'abort')).toHaveLength(1);
        end();
        await jest.advanceTimersByTimeAsync(HOLD_POLL_MS);
        expect(await held).toEqual(expected);
        // A keep-alive client sends request after request on one signal: none may leave a listener behind.
        expect(getEventListeners(client.signal, 'abort')).toHaveLength(0);
      },
    );

    it('several requests held for one pod make one readiness read per look, not one per request', async () => {
      const held = [1, 2, 3].map(() => sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1'));
      await jest.advanceTimersByTimeAsync(0);
      expect(fakes.reads).toBe(1);
      await jest.advanceTimersByTimeAsync(HOLD_POLL_MS);
      expect(fakes.reads).toBe(2);
      expect(sut.count(POD)).toBe(3);
      fakes.readiness = READY;
      await jest.advanceTimersByTimeAsync(HOLD_POLL_MS);
      expect(await Promise.all(held)).toEqual([READY, READY, READY]);
      expect(fakes.reads).toBe(3);
    });

    it("once the last held request's client left, the pod is not read again", async () => {
      const leaving = new AbortController();
      const left = sut.hold(POD, 60_000, leaving.signal, 'attempt-1');
      await jest.advanceTimersByTimeAsync(0);
      expect(fakes.reads).toBe(1);
      // It leaves during the sleep between two looks: the next look has nobody to look for.
      leaving.abort();
      expect(await left).toEqual({ kind: 'aborted' });
      await jest.advanceTimersByTimeAsync(HOLD_POLL_MS * 4);
      expect(fakes.reads).toBe(1);
    });

    it('a request held a moment after the earlier ones were released, the model up, is released at once', async () => {
      fakes.readiness = READY;
      expect(await sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1')).toEqual(READY);
      // The look that released it ends; the clock does not move.
      await jest.advanceTimersByTimeAsync(0);
      const next = watch(sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1'));
      await jest.advanceTimersByTimeAsync(0);
      expect(next()).toEqual(READY);
      expect(fakes.reads).toBe(2);
    });

    it('a request held long after the earlier looks ended is looked at again until the model is up', async () => {
      fakes.readiness = READY;
      expect(await sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1')).toEqual(READY);
      await jest.advanceTimersByTimeAsync(HOLD_POLL_MS * 4);
      fakes.readiness = { kind: 'cold', phase: 'Booting' };
      const next = watch(sut.hold(POD, 60_000, new AbortController().signal, 'attempt-1'));
      await jest.advanceTimersByTimeAsync(0);
      expect(next()).toBeUndefined();
      fakes.readiness = { kind: 'ready', baseUrl: 'http://pod-2' };
      await jest.advanceTimersByTimeAsync(HOLD_POLL_MS);
      expect(next()).toEqual({ kind: 'ready', baseUrl: 'http://pod-2' });
    });

    it('a request whose deadline falls on a look times out at that look, not one look later', async () => {
      const held = watch(sut.hold(POD, HOLD_POLL_MS, new AbortController().signal, 'attempt-1'));
      await jest.advanceTimersByTimeAsync(HOLD_POLL_MS - 1);
      expect(held()).toBeUndefined();
      await jest.advanceTimersByTimeAsync(1);
      expect(held()).toEqual({ kind: 'timeout' });
      expect(fakes.events).toEqual([{ action: 'timeout', requests: 1 }]);
    });
  });
});
