import type { PodActivity } from '@podwarden/policies';
import { BROWSER_USER_AGENT } from '@podwarden/runpod-client';
import {
  ContractHarness,
  CREATE_MARKS,
  createRequest,
  eventually,
  PAST_TIMEOUT_MS,
  POD_PORT,
  START_MARKS,
  type FaultRequest,
} from './support/contract-harness';

const ONE_HOUR_MS = 3_600_000;

describe('contract: getActivity (vLLM /metrics through the pod proxy) against the simulator', () => {
  let h: ContractHarness;

  beforeAll(async () => {
    h = await ContractHarness.start();
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const activity = (podId: string): Promise<PodActivity | null> => h.client.getActivity(podId, POD_PORT);
  const servingPod = (): Promise<string> => h.seedPod({ status: 'RUNNING' });
  /** The status codes the proxy answered this pod's requests with. */
  const proxyStatuses = async (podId: string): Promise<Record<string, number>> =>
    (await h.scrapes())[podId]?.byStatus ?? {};

  it.each<[string, number, PodActivity | null, string]>([
    ['PROVISIONING: the proxy is not routing (404), so there is no reading', 0, null, '404'],
    ['STARTING: the proxy is not routing (404), so there is no reading', CREATE_MARKS.starting, null, '404'],
    [
      'RUNNING while the GPU attaches: the proxy answers 502, so there is no reading',
      CREATE_MARKS.attaching,
      null,
      '502',
    ],
    [
      'RUNNING while the model loads: the proxy answers 502, so there is no reading',
      CREATE_MARKS.loading,
      null,
      '502',
    ],
    [
      'serving: the gauges and counters are read, both zero on a fresh process',
      CREATE_MARKS.serving,
      { active: 0, completed: 0 },
      '200',
    ],
  ])('%s', async (_rule, at, expected, proxyStatus) => {
    const { podId } = await h.client.createPod(createRequest());
    if (podId === null) throw new Error('create gave no id');
    h.advance(at);

    expect(await activity(podId)).toEqual(expected);
    expect(await proxyStatuses(podId)).toEqual({ [proxyStatus]: 1 });
  });

  it('a stopped pod (EXITED) has no reading: the proxy answers 404', async () => {
    const podId = await h.seedPod({ status: 'EXITED' });
    expect(await activity(podId)).toBeNull();
    expect(await proxyStatuses(podId)).toEqual({ '404': 1 });
  });

  it('the scrape goes to the given port: another port is not routed and has no reading', async () => {
    const podId = await servingPod();
    expect(await h.client.getActivity(podId, 9000)).toBeNull();
    expect(await activity(podId)).not.toBeNull();
  });

  it('a chat in flight raises active; once it completes, active drops and completed counts its tokens and the success', async () => {
    const podId = await servingPod();
    expect(await activity(podId)).toEqual({ active: 0, completed: 0 });

    const chat = h.chat(podId, 1000);
    let during: PodActivity | null = null;
    await eventually(async () => {
      during = await activity(podId);
      return during?.active === 1;
    }, 'the chat to be in flight');
    expect(during).toEqual({ active: 1, completed: 0 });

    h.advance(1000);
    const usage = await chat;
    // completed sums the success counter and both token counters.
    expect(await activity(podId)).toEqual({ active: 0, completed: usage.total_tokens + 1 });
  });

  it('a request waiting for a slot counts as active too (running + waiting)', async () => {
    await h.reset({ vllm: { maxConcurrency: 1 } });
    const podId = await servingPod();
    const chats = [h.chat(podId, 1000), h.chat(podId, 1000)];
    await eventually(async () => (await activity(podId))?.active === 2, 'one running and one waiting chat');
    h.advance(2000);
    await Promise.all(chats);
    expect(await activity(podId)).toMatchObject({ active: 0 });
  });

  it.each<[string, string]>([
    ['never-ready (vLLM never listens: 502)', 'never-ready'],
    ['dead (the vLLM process died: 502)', 'dead'],
  ])('behaviour %s has no reading', async (_name, behaviour) => {
    const podId = await servingPod();
    await h.setBehaviour(podId, behaviour);
    expect(await activity(podId)).toBeNull();
    expect(await proxyStatuses(podId)).toEqual({ '502': 1 });
  });

  it('behaviour no-counters (an old vLLM with gauges only) reads completed null, never 0', async () => {
    const podId = await servingPod();
    await h.setBehaviour(podId, 'no-counters');
    expect(await activity(podId)).toEqual({ active: 0, completed: null });
  });

  it('behaviour phantom-busy reads active ≥ 1 on every scrape, however long nothing is sent', async () => {
    const podId = await servingPod();
    await h.setBehaviour(podId, 'phantom-busy');
    const readings: (PodActivity | null)[] = [];
    for (let i = 0; i < 3; i += 1) {
      readings.push(await activity(podId));
      h.advance(ONE_HOUR_MS);
    }
    for (const reading of readings) expect(reading?.active).toBeGreaterThanOrEqual(1);
  });

  it('behaviour flapping alternates no reading (502) and a reading', async () => {
    const podId = await servingPod();
    await h.setBehaviour(podId, 'flapping');
    const readings: (PodActivity | null)[] = [];
    for (let i = 0; i < 4; i += 1) readings.push(await activity(podId));
    const reading = { active: 0, completed: 0 };
    expect(readings).toEqual([null, reading, null, reading]);
  });

  it('stop then start (same id) is a new vLLM process: counters start from zero, below the last reading', async () => {
    const podId = await servingPod();
    const usage = await h.chat(podId, 0);
    const before = await activity(podId);
    expect(before).toEqual({ active: 0, completed: usage.total_tokens + 1 });

    expect((await h.client.stopPod(podId)).ok).toBe(true);
    expect((await h.client.startPod(podId)).ok).toBe(true);
    h.advance(START_MARKS.serving);

    const after = await activity(podId);
    expect(after).toEqual({ active: 0, completed: 0 });
    expect(after?.completed).toBeLessThan(before?.completed ?? 0);
  });

  it('the scrape carries no Authorization header and a browser-like User-Agent', async () => {
    const podId = await servingPod();
    await activity(podId);
    await activity(podId);
    expect((await h.scrapes())[podId]).toMatchObject({
      metrics: 2,
      withAuthorization: 0,
      lastUserAgent: BROWSER_USER_AGENT,
    });
    expect(BROWSER_USER_AGENT).toMatch(/^Mozilla\/5\.0 /);
  });

  it('behind a browser-only proxy (Cloudflare) the client still gets through, where a plain client is refused', async () => {
    const podId = await servingPod();
    await h.putConfig({ wire: { proxyBrowserUaOnly: true } });
    const metricsUrl = `${h.client.proxyUrl(podId, POD_PORT)}/metrics`;
    const plain = await fetch(metricsUrl, { headers: { 'user-agent': 'curl/8.10.1' } });
    await plain.text();
    expect(plain.status).toBe(403);

    expect(await activity(podId)).toEqual({ active: 0, completed: 0 });
  });

  it.each<[string, Omit<FaultRequest, 'route' | 'podId'>]>([
    ['status 500', { kind: 'status', status: 500 }],
    ['status 200 with a text body that is not vLLM', { kind: 'status', status: 200, body: 'ok\n' }],
    ['unreadable (500)', { kind: 'unreadable' }],
    ['bare-404 (an HTML page)', { kind: 'bare-404' }],
    ['malformed (Cloudflare bot check: 200 HTML, no metrics)', { kind: 'malformed' }],
  ])('a scrape answered %s has no reading', async (_name, fault) => {
    const podId = await servingPod();
    await h.injectFault({ route: 'metrics', podId, ...fault });
    expect(await activity(podId)).toBeNull();
    expect((await h.scrapes())[podId]?.metrics).toBe(1);
    // The fault was one-shot: the next scrape reads again, so the null above was the fault's.
    expect(await activity(podId)).toEqual({ active: 0, completed: 0 });
  });

  it('a scrape delayed past the metrics timeout has no reading', async () => {
    const podId = await servingPod();
    await h.injectFault({ route: 'metrics', podId, kind: 'delay', delayMs: PAST_TIMEOUT_MS });
    expect(await h.impatient.getActivity(podId, POD_PORT)).toBeNull();
    await eventually(async () => (await h.scrapes())[podId]?.metrics === 1, 'the delayed scrape to finish');
  });
});
