import { SHORT_TIMINGS, SimHarness, WirePod } from './testing/sim-harness';

describe('GET /pods order', () => {
  let h: SimHarness;
  let ids: string[];

  /** Three pods created a second apart; the middle one stopped. */
  const seedThree = async (): Promise<void> => {
    ids = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push((await h.createPod({ name: `pod-${i}` })).id);
      h.clock.advance(1000);
    }
    await h.api('POST', `/pods/${ids[1]}/action`, { action: 'stop' });
  };

  afterEach(() => h.close());

  it.each([
    ['created', [0, 1, 2]],
    ['reverse', [2, 1, 0]],
    ['stale-first', [1, 0, 2]],
  ] as const)('%s lists the pods in that order', async (listOrder, expected) => {
    h = await SimHarness.start({ timings: SHORT_TIMINGS, listOrder });
    await seedThree();
    expect(await h.listIds()).toEqual(expected.map((i) => ids[i]));
  });

  it('shuffled is a seeded permutation: every pod, and the same sequence for the same seed', async () => {
    const orders: string[][] = [];
    for (let run = 0; run < 2; run += 1) {
      h = await SimHarness.start({ timings: SHORT_TIMINGS, listOrder: 'shuffled', seed: 7 });
      await seedThree();
      const seen: string[] = [];
      for (let i = 0; i < 5; i += 1) seen.push((await h.listIds()).join(','));
      for (const listing of seen) expect(listing.split(',').sort()).toEqual([...ids].sort());
      orders.push(seen);
      if (run === 0) await h.close(); // afterEach closes the last one
    }
    expect(orders[0]).toEqual(orders[1]);
    expect(new Set(orders[0]).size).toBeGreaterThan(1);
  });

  it('the order can be switched at runtime through PUT /_sim/config', async () => {
    h = await SimHarness.start({ timings: SHORT_TIMINGS });
    await seedThree();
    await h.admin('PUT', '/config', { listOrder: 'reverse' });
    expect(await h.listIds()).toEqual([ids[2], ids[1], ids[0]]);
  });

  it('a seeded pod with an older createdAt lists first in created order', async () => {
    h = await SimHarness.start({ timings: SHORT_TIMINGS });
    const fresh = await h.createPod();
    await h.admin('POST', '/pods', { id: 'oldpod', status: 'EXITED', createdAt: '2026-11-29T08:00:00Z' });
    expect(await h.listIds()).toEqual(['oldpod', fresh.id]);
  });

  it('the object list shape wraps the array in { pods }', async () => {
    h = await SimHarness.start({ timings: SHORT_TIMINGS, wire: { listShape: 'object' } });
    const pod = await h.createPod();
    const listed = (await h.api('GET', '/pods')).json as { pods: WirePod[] };
    expect(listed.pods.map((p) => p.id)).toEqual([pod.id]);
  });
});
