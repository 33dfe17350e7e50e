import type { IdleTickHarness } from './testing/idle-tick-harness';
import { idleTickHarnesses } from './testing/idle-tick-harness';

// IDLE_MINUTES 0.1 and CHECK_SECONDS 1 (the harness defaults): 6 idle observations stop the pod.
const harness = idleTickHarnesses();

function scrape(h: IdleTickHarness, completed: number): void {
  h.fake.setPod('p1', { metrics: { active: 0, completed } });
}

/** Ready with an empty idle streak: the first scrape seeds the counter baseline. */
async function ready(h: IdleTickHarness): Promise<void> {
  scrape(h, 0);
  expect((await h.next()).line).toBe('Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1');
}

describe('IdleTickService: inference proxy traffic', () => {
  it('a request in flight through a proxy keeps a Ready pod Busy even while /metrics does not answer; the idle window starts when it ends', async () => {
    const h = harness();
    await ready(h);
    await h.proxyActivity.begin('qwen', 'req-1');
    h.fake.setPod('p1', { metrics: null, observation: 'Running' });
    const during = await h.lines(8);
    expect(during).toEqual(
      Array(8).fill('Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1, observe p1'),
    );

    // Half a tick after the last one.
    h.now += 500;
    await h.proxyActivity.end('qwen', 'req-1');
    scrape(h, 0);
    const after = [(await h.next(500)).line, ...(await h.lines(6))];
    expect(after).toEqual([
      // The request ended since the last tick: this tick is still Busy.
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=1 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=2 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=3 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=4 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=5 boot=0 ready=1s up=1s | list, metrics p1',
      'Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => idle',
    ]);
  });

  it('a request that began and ended between two ticks, unseen by the scrape, counts as work', async () => {
    const h = harness();
    await ready(h);
    expect((await h.next()).line).toBe('Ready idle=1 boot=0 ready=1s up=1s | list, metrics p1');
    h.now += 100;
    await h.proxyActivity.begin('qwen', 'quick');
    h.now += 100;
    await h.proxyActivity.end('qwen', 'quick');
    expect((await h.next(800)).line).toBe('Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1');
  });

  it('proxy traffic never extends the runtime cap', async () => {
    const h = harness({ env: { MAX_RUNTIME_MINUTES: '1' } });
    await ready(h);
    await h.proxyActivity.begin('qwen', 'endless');
    const lines: string[] = [];
    for (let i = 0; i < 60; i += 1) {
      // The proxy renews the request's lease while it streams.
      await h.proxyActivity.renew('qwen', ['endless']);
      lines.push((await h.next()).line);
    }
    expect(lines.at(-2)).toBe('Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1');
    expect(lines.at(-1)).toBe('Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => runtime-cap');
  });

  it('traffic never readies a booting pod', async () => {
    const h = harness();
    h.fake.setPod('p1', { metrics: null, observation: 'Running' });
    await h.proxyActivity.begin('qwen', 'early');
    expect((await h.next()).line).toBe('Booting idle=0 boot=1 ready=- up=1s | list, metrics p1, observe p1');
  });

  it('an unreadable proxy record proves no idleness: Busy, with a warning', async () => {
    const h = harness({ proxyActivityReader: { read: () => Promise.reject(new Error('redis down')) } });
    await ready(h);
    expect((await h.next()).line).toBe('Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1');
    expect(h.logs.find('proxy activity unreadable; reading it as Busy')).toHaveLength(2);
  });
});
