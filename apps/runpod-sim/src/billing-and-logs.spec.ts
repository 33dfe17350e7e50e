import { SimHarness } from './testing/sim-harness';

const MIN = 60_000;
const WINDOW = 'bucketSize=hour&startTime=2026-11-30T00:00:00Z&endTime=2026-11-30T23:00:00Z';

interface BillingBody {
  readonly records: readonly Record<string, unknown>[];
  readonly metadata: Record<string, unknown>;
}

/** Reads a server-sent event stream until `count` events came or 1 s passed, then leaves. */
async function readEvents(
  url: string,
  count: number,
): Promise<{ id: string; data: Record<string, unknown> }[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 1_000);
  const events: { id: string; data: Record<string, unknown> }[] = [];
  try {
    const response = await fetch(url, { signal: controller.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let buffer = '';
    while (events.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += Buffer.from(value).toString('utf8');
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (.*)$/m.exec(block)?.[1] ?? '';
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data !== undefined) events.push({ id, data: JSON.parse(data) as Record<string, unknown> });
        end = buffer.indexOf('\n\n');
      }
    }
  } catch {
    // aborted after the time bound: return what came
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return events;
}

describe('runpod-sim billing history and pod logs', () => {
  let h: SimHarness;
  afterEach(() => h.close());

  it('bills a pod by the hour, hides the last billingLagMs and lets the current bucket grow', async () => {
    h = await SimHarness.start({ timings: { billingLagMs: 2 * MIN } });
    const pod = await h.createPod(); // 0.49 USD/h from 10:00
    h.clock.advance(90 * MIN);
    const first = (await h.api('GET', `/billing/pods?${WINDOW}`)).json as BillingBody;
    expect(first.records).toEqual([
      {
        podId: pod.id,
        time: '2026-11-30T10:00:00Z',
        gpuAmount: 0.49,
        cpuAmount: 0,
        diskAmount: 0,
        totalAmount: 0.49,
      },
      {
        podId: pod.id,
        time: '2026-11-30T11:00:00Z',
        gpuAmount: 0.228667,
        cpuAmount: 0,
        diskAmount: 0,
        totalAmount: 0.228667,
      },
    ]);
    expect(first.metadata).toMatchObject({ bucketSize: 'hour', recordCount: 2, totalAmount: 0.718667 });
    h.clock.advance(10 * MIN);
    const later = (await h.api('GET', `/billing/pods?${WINDOW}&podId=${pod.id}`)).json as BillingBody;
    expect(later.records.at(-1)?.totalAmount).toBeCloseTo((0.49 * 38) / 60, 6);
    expect((await h.api('GET', `/billing/pods?${WINDOW}&podId=someone-else`)).json).toMatchObject({
      records: [],
    });
  });

  it('an admin charge shows as billing no lifecycle explains', async () => {
    h = await SimHarness.start({ timings: { billingLagMs: 0 } });
    expect((await h.admin('POST', '/billing/charges', { podId: 'ghost', usd: 1.25 })).status).toBe(201);
    h.clock.advance(MIN);
    const body = (await h.api('GET', `/billing/pods?${WINDOW}`)).json as BillingBody;
    expect(body.records).toEqual([
      {
        podId: 'ghost',
        time: '2026-11-30T10:00:00Z',
        gpuAmount: 1.25,
        cpuAmount: 0,
        diskAmount: 0,
        totalAmount: 1.25,
      },
    ]);
  });

  it('the aggregate carries storage for every volume, pods or not, and refuses an unknown bucket size', async () => {
    h = await SimHarness.start({ timings: { billingLagMs: 0 } });
    const body = (
      await h.api(
        'GET',
        '/billing?bucketSize=day&startTime=2026-11-29T00:00:00Z&endTime=2026-11-30T00:00:00Z',
      )
    ).json as BillingBody;
    // 300 GB × 0.07 USD per GB-month, one day of it.
    expect(body.records).toEqual([
      expect.objectContaining({
        time: '2026-11-29T00:00:00Z',
        podAmount: 0,
        storageAmount: 0.7,
        totalAmount: 0.7,
      }),
    ]);
    expect((await h.api('GET', '/billing/pods?bucketSize=minute')).status).toBe(400);
  });

  it('streams a restart loop: backfilled system and container lines, ids the timestamps, tail and source honoured', async () => {
    h = await SimHarness.start({
      timings: { provisioningMs: 0, startingMs: 0, gpuAttachMs: 0, modelLoadMs: 0 },
    });
    await h.admin('POST', '/logs', { scenario: 'restart-loop' });
    const pod = await h.createPod();
    h.clock.advance(3.5 * MIN);
    const all = await readEvents(`${h.sim.baseUrl}/pods/${pod.id}/logs?tail=100`, 18);
    const starts = all.filter(
      (e) => e.data.source === 'system' && /start container/.test(String(e.data.line)),
    );
    expect(starts).toHaveLength(4);
    expect(all[0].id).toBe(all[0].data.ts);
    expect(all.some((e) => String(e.data.line).includes('hf_SimLeakedToken'))).toBe(true);
    const containerOnly = await readEvents(`${h.sim.baseUrl}/pods/${pod.id}/logs?source=container&tail=2`, 2);
    expect(containerOnly.map((e) => e.data.source)).toEqual(['container', 'container']);
    expect((await h.api('GET', `/pods/${pod.id}/logs?tail=9999`)).status).toBe(400);
    expect((await h.api('GET', '/pods/nope/logs')).status).toBe(404);
    // A looping pod never serves.
    expect((await h.proxy(pod.id, '/metrics')).status).toBe(502);
  });

  it('a cold pull logs pull progress and nothing from the container', async () => {
    h = await SimHarness.start();
    const pod = await h.createPod();
    expect((await h.admin('POST', `/pods/${pod.id}/logs`, { scenario: 'cold-pull' })).status).toBe(200);
    h.clock.advance(2 * MIN);
    const events = await readEvents(`${h.sim.baseUrl}/pods/${pod.id}/logs`, 8);
    expect(events.every((e) => e.data.source === 'system')).toBe(true);
    expect(events.filter((e) => /Downloading layer/.test(String(e.data.line))).length).toBe(6);
  });
});
