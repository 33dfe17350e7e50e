import { MockAgent } from 'undici';
import {
  FAKE_KEY,
  FAST_TIMEOUTS,
  PROXY_ORIGIN,
  SLOWER_THAN_TIMEOUT_MS,
  mockRunPod,
  onlyCall,
  type MockRunPod,
} from './testing/mock-runpod-harness';
import { BROWSER_USER_AGENT, RunPodClient } from './runpod-client';

const METRICS_PATH = '/proxy/abc123-8000/metrics';

/** Trimmed from a real vLLM /metrics page. */
const VLLM_EXPOSITION = [
  '# HELP vllm:num_requests_running Number of requests in model execution batches.',
  '# TYPE vllm:num_requests_running gauge',
  'vllm:num_requests_running{engine="0",model_name="Qwen/Qwen2.5-32B-Instruct"} 1.0',
  '# HELP vllm:num_requests_waiting Number of requests waiting to be processed.',
  '# TYPE vllm:num_requests_waiting gauge',
  'vllm:num_requests_waiting{engine="0",model_name="Qwen/Qwen2.5-32B-Instruct"} 2.0',
  '# HELP vllm:request_success_total Count of successfully processed requests.',
  '# TYPE vllm:request_success_total counter',
  'vllm:request_success_total{engine="0",finished_reason="stop",model_name="Qwen/Qwen2.5-32B-Instruct"} 12.0',
  'vllm:request_success_total{engine="0",finished_reason="length",model_name="Qwen/Qwen2.5-32B-Instruct"} 3.0',
  'vllm:request_success_created{engine="0",finished_reason="stop",model_name="Qwen/Qwen2.5-32B-Instruct"} 1.7649e+09',
  '# TYPE vllm:generation_tokens_total counter',
  'vllm:generation_tokens_total{engine="0",model_name="Qwen/Qwen2.5-32B-Instruct"} 3456.0',
  'vllm:generation_tokens_created{engine="0",model_name="Qwen/Qwen2.5-32B-Instruct"} 1.7649e+09',
  'vllm:prompt_tokens_total{engine="0",model_name="Qwen/Qwen2.5-32B-Instruct"} 789.0',
  'vllm:time_to_first_token_seconds_bucket{le="+Inf",model_name="Qwen/Qwen2.5-32B-Instruct"} 15.0',
  'process_cpu_seconds_total 42.5',
  '',
].join('\n');

describe('RunPodClient.getActivity', () => {
  let mock: MockRunPod;
  beforeEach(() => {
    mock = mockRunPod({ metricsTimeouts: FAST_TIMEOUTS, maxMetricsBytes: 4096 });
  });
  afterEach(() => mock.finish());

  const answer = (status: number, body: string) =>
    mock.proxy
      .intercept({ method: 'GET', path: METRICS_PATH })
      .reply(status, body, { headers: { 'content-type': 'text/plain; version=0.0.4' } });

  it('scrapes GET {proxy}/metrics with a browser-like User-Agent and no Authorization header', async () => {
    answer(200, VLLM_EXPOSITION);
    await mock.client.getActivity('abc123', 8000);
    const call = onlyCall(mock);
    expect(call).toEqual({
      method: 'GET',
      url: `${PROXY_ORIGIN}${METRICS_PATH}`,
      headers: { 'user-agent': BROWSER_USER_AGENT, accept: 'text/plain, */*' },
      body: undefined,
    });
    expect(BROWSER_USER_AGENT).toMatch(/^Mozilla\/5\.0 .*Chrome\//);
    expect(Object.keys(call.headers as object).map((h) => h.toLowerCase())).not.toContain('authorization');
    expect(JSON.stringify(call)).not.toContain(FAKE_KEY);
  });

  it('sums the gauges and the work counters over every series, ignoring _created', async () => {
    answer(200, VLLM_EXPOSITION);
    expect(await mock.client.getActivity('abc123', 8000)).toEqual({
      active: 3,
      completed: 12 + 3 + 3456 + 789,
    });
  });

  it('reports completed as null when the exposition carries only the gauges', async () => {
    answer(200, 'vllm:num_requests_running{model_name="m"} 0\nvllm:num_requests_waiting{model_name="m"} 0\n');
    expect(await mock.client.getActivity('abc123', 8000)).toEqual({ active: 0, completed: null });
  });

  it('is null for a 2xx page that is not a vLLM exposition', async () => {
    answer(200, '<html><title>Just a moment...</title></html>');
    expect(await mock.client.getActivity('abc123', 8000)).toBeNull();
  });

  it.each([
    [404, 'not routing while the pod is stopped'],
    [502, 'the model is still loading'],
    [403, 'Cloudflare refused us'],
    [500, 'vLLM failed'],
  ])('is null on http %i (%s)', async (status) => {
    answer(status, VLLM_EXPOSITION);
    expect(await mock.client.getActivity('abc123', 8000)).toBeNull();
  });

  it('is null on a transport error', async () => {
    mock.proxy.intercept({ method: 'GET', path: METRICS_PATH }).replyWithError(new Error('ECONNREFUSED'));
    expect(await mock.client.getActivity('abc123', 8000)).toBeNull();
  });

  it('is null on a timeout', async () => {
    mock.proxy
      .intercept({ method: 'GET', path: METRICS_PATH })
      .reply(200, VLLM_EXPOSITION)
      .delay(SLOWER_THAN_TIMEOUT_MS);
    expect(await mock.client.getActivity('abc123', 8000)).toBeNull();
  });

  it('is null for a body over maxMetricsBytes', async () => {
    const oversized = `${VLLM_EXPOSITION}${'# padding\n'.repeat(500)}`;
    expect(Buffer.byteLength(oversized)).toBeGreaterThan(4096);
    answer(200, oversized);
    expect(await mock.client.getActivity('abc123', 8000)).toBeNull();
  });

  it('stops before reading when the declared length is over maxMetricsBytes', async () => {
    mock.proxy
      .intercept({ method: 'GET', path: METRICS_PATH })
      .reply(200, VLLM_EXPOSITION, { headers: { 'content-length': '999999' } });
    expect(await mock.client.getActivity('abc123', 8000)).toBeNull();
  });

  it('reads a body exactly at maxMetricsBytes', async () => {
    const body = VLLM_EXPOSITION.padEnd(4096, '\n');
    expect(Buffer.byteLength(body)).toBe(4096);
    answer(200, body);
    expect(await mock.client.getActivity('abc123', 8000)).not.toBeNull();
  });
});

describe('RunPodClient proxy URLs', () => {
  it('fills {podId} and {port} into the RunPod template', async () => {
    const agent = new MockAgent();
    const client = new RunPodClient({
      apiKey: FAKE_KEY,
      baseUrl: 'https://api.runpod.io/v2',
      proxyUrlTemplate: 'https://{podId}-{port}.proxy.runpod.net',
      dispatcher: agent,
    });
    expect(client.proxyUrl('abc123', 8000)).toBe('https://abc123-8000.proxy.runpod.net');
    await agent.close();
  });

  it('path-escapes the pod id', async () => {
    const mock = mockRunPod();
    expect(mock.client.proxyUrl('a/b?c', 8000)).toBe(`${PROXY_ORIGIN}/proxy/a%2Fb%3Fc-8000`);
    await mock.finish();
  });

  it('scrapes the real RunPod proxy host for a pod', async () => {
    const mock = mockRunPod({ proxyUrlTemplate: 'https://{podId}-{port}.proxy.runpod.net/' });
    mock.agent
      .get('https://abc123-8000.proxy.runpod.net')
      .intercept({ method: 'GET', path: '/metrics' })
      .reply(200, 'vllm:num_requests_running 0\n');
    expect(await mock.client.getActivity('abc123', 8000)).toEqual({ active: 0, completed: null });
    expect(onlyCall(mock).url).toBe('https://abc123-8000.proxy.runpod.net/metrics');
    await mock.finish();
  });
});
