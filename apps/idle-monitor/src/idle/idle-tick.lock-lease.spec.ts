import type { Gate, IdleTickHarness } from './testing/idle-tick-harness';
import { idleTickHarnesses } from './testing/idle-tick-harness';

// A short per-pod lock lease, so a tick held on a slow scrape outlives it many times over.
const LEASE_MS = 1000;
const harness = idleTickHarnesses();

function lockKey(h: IdleTickHarness): string {
  return h.keys.idleLock('qwen');
}

/** `ticks` idle ticks; the next tick's scrape is then held until the test opens the gate. */
async function nextScrapeHeldAfter(h: IdleTickHarness, ticks: number): Promise<Gate> {
  h.fake.setPod('p1', { metrics: { active: 0, completed: 0 } });
  await h.lines(ticks);
  const scrape = h.gate();
  h.fake.onActivity('p1', async () => {
    await scrape.promise;
    return { active: 0, completed: 0 };
  });
  return scrape;
}

/** The lock's remaining lease, sampled until `ms` have passed and one renewal (a TTL that went back up) was seen. */
async function ttlsUntilRenewedPast(h: IdleTickHarness, ms: number): Promise<number[]> {
  const ttls: number[] = [];
  const started = Date.now();
  const renewed = (): boolean => ttls.some((ttl, i) => i > 0 && ttl > ttls[i - 1]);
  while (!(renewed() && Date.now() - started > ms) && Date.now() - started < 4_000) {
    ttls.push(await h.redis.pttl(lockKey(h)));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return ttls;
}

/** Six idle ticks: the seventh is due to stop the pod, and its scrape is held. */
function dueTickHeldOnItsScrape(h: IdleTickHarness): Promise<Gate> {
  return nextScrapeHeldAfter(h, 6);
}

describe('IdleTickService: a tick that outlives its lock lease', () => {
  it('keeps the lock while it runs (the lease is renewed), so a second tick for the pod is skipped as busy; then it completes', async () => {
    const h = harness({ env: { IDLE_POD_LOCK_MS: String(LEASE_MS) } });
    const held = await dueTickHeldOnItsScrape(h);
    h.now += 1000;
    const slow = h.tick.run('tick-7');
    await h.untilCalled('metrics p1');
    const holder = await h.redis.get(lockKey(h));
    const ttls = await ttlsUntilRenewedPast(h, 1.5 * LEASE_MS);
    // Past its first lease, the same holder still has the lock: it was renewed.
    expect(await h.redis.get(lockKey(h))).toBe(holder);
    const second = await h.replica().run('tick-8');
    held.open();
    const first = await slow;

    expect(holder).not.toBeNull();
    expect(Math.min(...ttls)).toBeGreaterThan(0);
    expect(second.get('qwen')).toEqual({ kind: 'skipped', why: 'busy' });
    expect(h.logs.find('previous tick for this pod still running')).toEqual([
      expect.objectContaining({ pod: 'qwen', tickId: 'tick-8' }),
    ]);
    expect(first.get('qwen')).toEqual(
      expect.objectContaining({ kind: 'advanced', stop: 'idle', stopAccepted: true }),
    );
    expect((await h.actionsOf()).map((a) => a.trigger)).toEqual(['idle']);
    expect((await h.store.load('qwen')).lastTickId).toBe('tick-7');
  });

  it.each([
    [
      'another replica took the lock after the lease lapsed',
      (h: IdleTickHarness) => h.redis.set(lockKey(h), 'newer-holder'),
    ],
    [
      'the lease lapsed (renewal failed) and nobody holds it',
      (h: IdleTickHarness) => h.redis.del(lockKey(h)),
    ],
  ])('when %s, the tick stops nothing and does not overwrite the state', async (_case, lapse) => {
    const h = harness({ env: { IDLE_POD_LOCK_MS: String(LEASE_MS) } });
    const held = await dueTickHeldOnItsScrape(h);
    const before = await h.store.load('qwen');
    h.now += 1000;
    const slow = h.tick.run('tick-7');
    await h.untilCalled('metrics p1');
    await lapse(h);
    held.open();
    const outcome = (await slow).get('qwen');

    expect(outcome).toEqual({ kind: 'skipped', why: 'lock-lost' });
    expect(h.fake.takeCalls()).toEqual(['list', 'metrics p1']);
    expect(await h.store.load('qwen')).toEqual(before);
    expect(await h.actionsOf()).toEqual([]);
    expect(h.logs.messages('warn')).toEqual([
      "lost this pod's idle lock during the tick (its lease lapsed); the state is left to the newer holder",
    ]);
    expect(h.logs.find("lost this pod's idle lock")[0]).toMatchObject({ pod: 'qwen', tickId: 'tick-7' });
  });

  it('a tick whose write finds the lock gone leaves the newer state in place (the write is fenced, not only checked before)', async () => {
    const h = harness({ env: { IDLE_POD_LOCK_MS: String(LEASE_MS) } });
    const scrape = await nextScrapeHeldAfter(h, 2);
    h.now += 1000;
    const slow = h.tick.run('tick-3');
    await h.untilCalled('metrics p1');
    // A newer holder takes over and writes its own record; no stop is due, so only the fence stands in the way.
    await h.redis.set(lockKey(h), 'newer-holder');
    const newer = { ...(await h.store.load('qwen')), lastTickId: 'newer-tick' };
    await h.store.save('qwen', newer);
    scrape.open();

    expect((await slow).get('qwen')).toEqual({ kind: 'skipped', why: 'lock-lost' });
    expect(await h.store.load('qwen')).toEqual(newer);
  });
});
