import { T0, idleTickHarnesses, type IdleTickHarness } from './testing/idle-tick-harness';

// One tick a minute, the fixed window 15 min, the adaptive floor 2 min: a pod whose own idle gaps are
// 1.5 min learns a 2-minute window.
const harness = idleTickHarnesses();
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const BASE = { CHECK_SECONDS: '60', IDLE_MINUTES: '15', IDLE_MIN_MINUTES: '2' };
const ADAPTIVE = { ...BASE, IDLE_POLICY: 'adaptive' };

/**
 * Two weeks of office mornings before T0 (Monday 2026-11-30 10:00 UTC): on
 * each weekday a session from 09:00, ten 30-second requests two minutes apart.
 */
async function seedMornings(h: IdleTickHarness): Promise<void> {
  for (let day = 1; day <= 14; day += 1) {
    const date = new Date(T0 - day * DAY);
    if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
    const nine = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), 9, 0, 0);
    for (let k = 0; k < 10; k += 1) {
      await h.usage.recordUse('qwen', { start: nine + 2 * k * MINUTE, end: nine + 2 * k * MINUTE + 30_000 });
    }
  }
}

/** The pod answering its metrics with this completed count (the same count twice reads Idle). */
function scrape(h: IdleTickHarness, completed: number): void {
  h.fake.setPod('p1', { metrics: { active: 0, completed } });
}

/** Ticks a minute apart until the pod is stopped; answers how many idle ticks that took after ready. */
async function idleTicksUntilStop(h: IdleTickHarness, max = 30): Promise<number> {
  scrape(h, 1);
  await h.next(MINUTE); // ready: the first scrape seeds the baseline
  for (let ticks = 1; ticks <= max; ticks += 1) {
    const result = await h.next(MINUTE);
    if (result.line.endsWith('=> idle')) {
      h.fake.removePod('p1');
      return ticks;
    }
  }
  throw new Error(`no idle stop within ${max} ticks`);
}

describe('IdleTickService: the adaptive window (IDLE_POLICY=adaptive)', () => {
  it('applies the window learned from the usage record: stops after 2 idle minutes, not 15, and says why', async () => {
    const h = harness({ env: ADAPTIVE, rhythm: true });
    await seedMornings(h);

    expect(await idleTicksUntilStop(h)).toBe(2);

    const snapshot = await h.rhythms.snapshot('qwen');
    expect(snapshot?.inForce).toEqual({
      minutes: 2,
      policy: 'adaptive',
      basis: 'learned from 99 idle gaps over 15 days',
    });
    expect(h.events.of('idle-window')[0]).toMatchObject({ minutes: 2, policy: 'adaptive' });
    // The stop is in the usage record, with its trigger.
    expect((await h.usage.read('qwen', T0)).stops).toEqual([{ at: h.now, trigger: 'idle' }]);
  });

  it('Busy resets the streak exactly as with the fixed window: use every other minute never stops the pod', async () => {
    const h = harness({ env: ADAPTIVE, rhythm: true });
    await seedMornings(h);
    scrape(h, 1);
    await h.next(MINUTE);
    const lines: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      scrape(h, 2 + Math.floor(i / 2)); // the count moves every other tick: Busy, Idle, Busy, …
      lines.push((await h.next(MINUTE)).line);
    }
    expect(lines.some((line) => line.includes('=>'))).toBe(false);
    expect(lines.map((line) => line.split(' ')[1])).toEqual([
      'idle=0',
      'idle=1',
      'idle=0',
      'idle=1',
      'idle=0',
      'idle=1',
      'idle=0',
      'idle=1',
      'idle=0',
      'idle=1',
    ]);
  });

  it("records Busy ticks no proxy accounts for as uses (not the ready tick); proxy traffic is the proxy's to record", async () => {
    const h = harness({ env: ADAPTIVE, rhythm: true });
    scrape(h, 1);
    await h.next(MINUTE); // ready
    const before = h.now;
    scrape(h, 2);
    await h.next(MINUTE); // Busy, no proxy
    expect((await h.usage.read('qwen', T0)).uses).toEqual([{ start: before, end: h.now }]);

    // The proxies record on the harness clock: a request one to two seconds into the interval.
    h.now += 1000;
    await h.proxyActivity.begin('qwen', 'r1');
    h.now += 1000;
    await h.proxyActivity.end('qwen', 'r1');
    scrape(h, 3);
    await h.next(MINUTE - 2000); // Busy, and the proxy saw it: nothing added here
    expect(await h.usage.useCount('qwen')).toBe(1);
  });

  it('keeps the fixed window until it has seen enough gaps', async () => {
    const h = harness({ env: ADAPTIVE, rhythm: true });
    expect(await idleTicksUntilStop(h)).toBe(15);
    expect((await h.rhythms.snapshot('qwen'))?.inForce.basis).toBe(
      'fixed window until 30 idle gaps are seen (0 so far)',
    );
  });
});

describe('IdleTickService: IDLE_POLICY=fixed (the default) is unchanged', () => {
  it('the same usage record, the full 15 minutes, and no rhythm learned or pre-wake asked for', async () => {
    const h = harness({ env: BASE, rhythm: true });
    await seedMornings(h);
    expect(await idleTicksUntilStop(h)).toBe(15);
    expect(await h.rhythms.snapshot('qwen')).toBeNull();
    h.now = Date.UTC(2026, 11, 1, 8, 50);
    for (let i = 0; i < 10; i += 1) await h.next(MINUTE);
    expect(h.prewakesEnqueued).toEqual([]);
  });
});

describe('IdleTickService: pre-wake', () => {
  /** Tuesday 2026-12-01 from 08:50 UTC, the pod down: ticks a minute apart until `until`. */
  async function tuesdayMorning(h: IdleTickHarness, until: string): Promise<void> {
    h.now = Date.UTC(2026, 11, 1, 8, 50);
    while (new Date(h.now).toISOString().slice(11, 16) < until) await h.next(MINUTE);
  }

  it('wakes the pod once, a boot and a tick ahead of the usual 09:00 start (08:56), with trigger prewake', async () => {
    const h = harness({ env: ADAPTIVE, rhythm: true });
    await seedMornings(h);
    await tuesdayMorning(h, '08:55');
    expect(h.prewakesEnqueued).toEqual([]);
    expect((await h.rhythms.snapshot('qwen'))?.nextPrewakeAt).toBe(Date.UTC(2026, 11, 1, 8, 56));
    await h.next(MINUTE);
    expect(new Date(h.now).toISOString()).toBe('2026-12-01T08:56:00.000Z');
    expect(h.prewakesEnqueued).toEqual(['qwen']);
    await h.next(MINUTE);
    await h.next(MINUTE);
    expect(h.prewakesEnqueued).toEqual(['qwen']);
    expect(h.prewakeOutcomes).toEqual(['fired']);
    expect(h.events.of('prewake')).toEqual([
      expect.objectContaining({ outcome: 'fired', attemptId: 'prewake-1', dayClass: 'weekday' }),
    ]);
  });

  it('a pre-woken pod nobody uses stops after its own short window (3 min), a miss', async () => {
    const h = harness({ env: ADAPTIVE, rhythm: true });
    await seedMornings(h);
    await tuesdayMorning(h, '08:56');
    expect(h.prewakesEnqueued).toEqual(['qwen']);
    expect(await idleTicksUntilStop(h)).toBe(3);
    await h.next(MINUTE); // seen down: the run is over
    expect(h.prewakeOutcomes).toEqual(['fired', 'miss']);
    expect(await h.rhythms.prewakeRun('qwen')).toBeNull();
  });

  it('a pre-woken pod someone uses is a hit and goes on the learned window', async () => {
    const h = harness({ env: ADAPTIVE, rhythm: true });
    await seedMornings(h);
    await tuesdayMorning(h, '08:56');
    await h.usage.recordUse('qwen', { start: h.now + 10_000, end: h.now + 20_000 });
    scrape(h, 1);
    await h.next(MINUTE);
    expect(h.prewakeOutcomes).toEqual(['fired', 'hit']);
    expect((await h.rhythms.snapshot('qwen'))?.inForce.minutes).toBe(2);
  });

  it.each([
    ['PREWAKE=off', { PREWAKE: 'off' }],
    ['PREWAKE_MAX_PER_DAY=0', { PREWAKE_MAX_PER_DAY: '0' }],
  ])('%s: no pre-wake', async (_name, env) => {
    const h = harness({ env: { ...ADAPTIVE, ...env }, rhythm: true });
    await seedMornings(h);
    await tuesdayMorning(h, '09:05');
    expect(h.prewakesEnqueued).toEqual([]);
    expect((await h.rhythms.snapshot('qwen'))?.nextPrewakeAt).toBeNull();
  });

  it('at most PREWAKE_MAX_PER_DAY a day across replicas: a day whose pre-wakes are taken gets none', async () => {
    const h = harness({ env: { ...ADAPTIVE, PREWAKE_MAX_PER_DAY: '1' }, rhythm: true });
    await seedMornings(h);
    expect(await h.rhythms.takePrewake('qwen', Date.UTC(2026, 11, 1, 7), 1)).toBe(true);
    await tuesdayMorning(h, '09:05');
    expect(h.prewakesEnqueued).toEqual([]);
  });
});
