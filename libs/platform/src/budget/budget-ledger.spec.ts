import { MovedClock, useTestRedis } from '@podwarden/testing';
import { RedisClock } from '../redis/redis-clock';
import { RedisKeys } from '../redis/redis-keys';
import { BudgetLedger } from './budget-ledger';

const NOON = Date.parse('2026-12-01T12:00:00Z');
const HOUR = 3_600_000;

describe('BudgetLedger (real Redis)', () => {
  let ledger: BudgetLedger;
  const db = useTestRedis('budget');
  // The shared clock the test moves; callers here are on time with it unless a case says otherwise.
  const shared = new MovedClock(NOON);
  /** `t` as the moment of the call that takes it: the shared clock reads it too. */
  const at = (t: number): number => {
    shared.at = t;
    return t;
  };

  beforeAll(() => {
    ledger = new BudgetLedger(db.redis, new RedisKeys(db.prefix), shared);
  });

  it("judges spend on RunPod's billing when it exceeds the ledger: a leak the ledger missed refuses the wake", async () => {
    const keys = new RedisKeys(db.prefix);
    await db.redis.set(keys.budgetProvider('2026-12-01'), '900000');
    const refused = await ledger.reserve('a', { micros: 200_000, pricePerHour: 1, at: at(NOON) }, 1_000_000);
    expect(refused).toEqual({
      kind: 'refused',
      spentMicros: 0,
      reservedMicros: 0,
      accruingMicros: 0,
      providerMicros: 900_000,
    });
    const fits = await ledger.reserve('a', { micros: 100_000, pricePerHour: 1, at: at(NOON) }, 1_000_000);
    expect(fits.kind).toBe('reserved');
  });

  it('an open run counts its time so far once, whichever measure is larger', async () => {
    const keys = new RedisKeys(db.prefix);
    await ledger.reserve('a', { micros: 500_000, pricePerHour: 1, at: at(NOON) }, 2_000_000);
    // Half an hour later RunPod has billed that run 0.5 USD: the same money as the ledger's accruing part.
    await db.redis.set(keys.budgetProvider('2026-12-01'), '500000');
    const later = NOON + HOUR / 2;
    const second = await ledger.reserve(
      'b',
      { micros: 1_500_000, pricePerHour: 1, at: at(later) },
      2_000_000,
    );
    expect(second).toMatchObject({ kind: 'reserved', accruingMicros: 500_000, providerMicros: 500_000 });
  });

  it('reserves within the budget and refuses what would exceed it, naming spent and reserved', async () => {
    const a = await ledger.reserve('a', { micros: 600_000, pricePerHour: 1, at: at(NOON) }, 1_000_000);
    const b = await ledger.reserve('b', { micros: 600_000, pricePerHour: 1, at: at(NOON) }, 1_000_000);
    expect(a).toMatchObject({ kind: 'reserved', spentMicros: 0, reservedMicros: 0, providerMicros: null });
    expect(b).toMatchObject({ kind: 'refused', spentMicros: 0, reservedMicros: 600_000 });
    expect(await ledger.figures(at(NOON))).toEqual({
      spentMicros: 0,
      reservedMicros: 600_000,
      accruingMicros: 0,
    });
  });

  it('many replicas reserving at once never exceed the budget together', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ledger.reserve(`pod${i}`, { micros: 300_000, pricePerHour: 1, at: at(NOON) }, 1_000_000),
      ),
    );
    expect(outcomes.filter((o) => o.kind === 'reserved')).toHaveLength(3);
    expect((await ledger.figures(at(NOON))).reservedMicros).toBe(900_000);
  });

  it('without a budget every reservation is taken (the ledger still estimates spend)', async () => {
    const outcome = await ledger.reserve('a', { micros: 10 ** 12, pricePerHour: 1, at: at(NOON) }, null);
    expect(outcome.kind).toBe('reserved');
  });

  it('settling turns the reservation into price × observed uptime, once', async () => {
    await ledger.reserve('a', { micros: 6_000_000, pricePerHour: 2, at: at(NOON) }, 10_000_000);
    // Observed up half an hour after the reservation, stopped an hour after that: 1 h × 2 USD/h.
    expect(await ledger.settle('A', NOON + HOUR / 2, at(NOON + 1.5 * HOUR))).toBe(2_000_000);
    expect(await ledger.settle('a', NOON, at(NOON + 2 * HOUR))).toBeNull();
    expect(await ledger.figures(at(NOON + 2 * HOUR))).toEqual({
      spentMicros: 2_000_000,
      reservedMicros: 0,
      accruingMicros: 0,
    });
    // The freed room is reservable again.
    const again = await ledger.reserve(
      'b',
      { micros: 8_000_000, pricePerHour: 2, at: at(NOON + 2 * HOUR) },
      10_000_000,
    );
    expect(again).toMatchObject({ kind: 'reserved', spentMicros: 2_000_000, reservedMicros: 0 });
  });

  it('without an observed uptime a run is priced from its reservation', async () => {
    await ledger.reserve('a', { micros: 6_000_000, pricePerHour: 1, at: at(NOON) }, null);
    expect(await ledger.settle('a', null, at(NOON + HOUR))).toBe(1_000_000);
  });

  it("a pod's new reservation settles its old one at the time so far (never lost, never counted twice)", async () => {
    await ledger.reserve('a', { micros: 6_000_000, pricePerHour: 1, at: at(NOON) }, null);
    await ledger.reserve('a', { micros: 6_000_000, pricePerHour: 1, at: at(NOON + HOUR) }, null);
    expect(await ledger.figures(at(NOON + HOUR))).toEqual({
      spentMicros: 1_000_000,
      reservedMicros: 6_000_000,
      accruingMicros: 0,
    });
  });

  it('a re-run of the same attempt keeps its reservation: nothing settled, nothing added', async () => {
    const first = { micros: 6_000_000, pricePerHour: 1, at: at(NOON), attemptId: 'job-7' };
    await ledger.reserve('a', first, 10_000_000);
    const again = await ledger.reserve('a', { ...first, at: at(NOON + HOUR) }, 10_000_000);
    expect(again).toMatchObject({ kind: 'reserved', spentMicros: 0, reservedMicros: 0 });
    expect(await ledger.figures(at(NOON))).toEqual({
      spentMicros: 0,
      reservedMicros: 6_000_000,
      accruingMicros: 0,
    });
    // Another attempt settles it at its time so far, as before.
    await ledger.reserve('a', { ...first, at: at(NOON + HOUR), attemptId: 'job-8' }, 10_000_000);
    expect(await ledger.figures(at(NOON + HOUR))).toEqual({
      spentMicros: 1_000_000,
      reservedMicros: 6_000_000,
      accruingMicros: 0,
    });
  });

  it('figures price the open runs by their time so far, at most their reservation', async () => {
    await ledger.reserve('a', { micros: 1_500_000, pricePerHour: 1, at: at(NOON) }, null);
    expect((await ledger.figures(at(NOON + HOUR))).accruingMicros).toBe(1_000_000);
    expect((await ledger.figures(at(NOON + 5 * HOUR))).accruingMicros).toBe(1_500_000);
  });

  it('a reservation written by reserve reads back whole, its attempt included (the schema takes what is written)', async () => {
    await ledger.reserve('a', { micros: 6_000_000, pricePerHour: 1, at: at(NOON), attemptId: 'job-9' }, null);
    expect(await ledger.figures(at(NOON + HOUR))).toEqual({
      spentMicros: 0,
      reservedMicros: 6_000_000,
      accruingMicros: 1_000_000,
    });
    expect(await ledger.settle('a', null, at(NOON + HOUR))).toBe(1_000_000);
  });

  it.each([
    ['of the wrong shape (no price)', JSON.stringify({ micros: 6_000_000, at: NOON })],
    ['not JSON', '{"micros": 6000000,'],
  ])(
    'a reservation %s is never read as none: settle and figures throw, and it stays open',
    async (_case, stored) => {
      const keys = new RedisKeys(db.prefix);
      await db.redis.hset(keys.budgetOpen(), 'a', stored);
      await expect(ledger.settle('a', null, at(NOON + HOUR))).rejects.toThrow(/unreadable/);
      await expect(ledger.figures(at(NOON + HOUR))).rejects.toThrow(/unreadable/);
      expect(await db.redis.hget(keys.budgetOpen(), 'a')).toBe(stored);
      expect(await db.redis.get(keys.budgetSpent('2026-12-01'))).toBeNull();
    },
  );

  describe("on Redis's clock (production), callers minutes apart", () => {
    const MINUTES_3 = 180_000;
    const DAY = 86_400_000;
    // 1 USD a second: a run of a few hundred milliseconds settles at a few hundred thousand micro-dollars.
    const PER_SECOND = 3600;
    let onRedis: BudgetLedger;
    const keys = new RedisKeys(db.prefix);

    beforeAll(() => {
      onRedis = new BudgetLedger(db.redis, keys, new RedisClock(db.redis));
    });

    async function redisDay(): Promise<string> {
      const [seconds] = await db.redis.time();
      return new Date(Number(seconds) * 1000).toISOString().slice(0, 10);
    }

    it('a run reserved by a waker three minutes ahead settles at its observed uptime, not short by the skew', async () => {
      await onRedis.reserve(
        'a',
        { micros: 10 ** 9, pricePerHour: PER_SECOND, at: Date.now() + MINUTES_3 },
        null,
      );
      // The idle monitor (on time) sees the pod up after the reservation and stops it 300 ms later.
      const upSince = Date.now();
      await new Promise((r) => setTimeout(r, 300));
      const now = Date.now();
      const settled = await onRedis.settle('a', upSince, now);
      expect(settled).toBe(Math.round(((now - upSince) / 1000) * 1e6));
    });

    it('a run reserved by a waker three minutes behind is priced from the uptime, not three minutes longer', async () => {
      await onRedis.reserve(
        'b',
        { micros: 10 ** 9, pricePerHour: PER_SECOND, at: Date.now() - MINUTES_3 },
        null,
      );
      // No uptime observed: priced from the reservation, which was made just now.
      const settled = await onRedis.settle('b', null, Date.now());
      expect(settled).toBeLessThan(30_000_000);
    });

    it("reservations, settlements and figures count in Redis's UTC day, whatever day each caller's clock shows", async () => {
      const today = await redisDay();
      await onRedis.reserve('c', { micros: 5_000_000, pricePerHour: PER_SECOND, at: Date.now() + DAY }, null);
      await onRedis.settle('c', null, Date.now() - DAY);
      const days = (await db.redis.keys(`${db.prefix}:budget:spent:*`)).map((key) =>
        key.slice(key.lastIndexOf(':') + 1),
      );
      expect(days).toEqual([today]);
      const figures = await onRedis.figures(Date.now() + DAY);
      expect(figures.spentMicros).toBe(Number(await db.redis.get(keys.budgetSpent(today))));
      expect(figures.reservedMicros).toBe(0);
    });
  });
});
