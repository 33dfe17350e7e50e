import { SimResponse } from './http-io';

/**
 * Hostile /metrics bodies: what a scraper must survive without trusting a
 * word of it. Both are streamed, so the simulator never holds them whole,
 * and both stop writing once the client goes away.
 */
const METRICS_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const CHUNK_BYTES = 64 * 1024;

/**
 * vLLM gauges saying "idle" first (a scraper that read it all would see an
 * idle pod), then `bytes` of comment lines: only a bounded read is safe.
 */
export function hugeMetricsBody(bytes: number): SimResponse {
  const head =
    '# HELP vllm:num_requests_running Number of requests currently running.\n' +
    '# TYPE vllm:num_requests_running gauge\n' +
    'vllm:num_requests_running{engine="0",model_name="m"} 0.0\n' +
    '# HELP vllm:num_requests_waiting Number of requests waiting.\n' +
    '# TYPE vllm:num_requests_waiting gauge\n' +
    'vllm:num_requests_waiting{engine="0",model_name="m"} 0.0\n';
  const line = `# ${'x'.repeat(1021)}\n`;
  const chunk = line.repeat(Math.ceil(CHUNK_BYTES / line.length));
  return {
    status: 200,
    headers: { 'content-type': METRICS_TYPE },
    body: '',
    json: undefined,
    stream: async (sink) => {
      sink.write(head);
      for (let sent = 0; sent < bytes && !sink.closed; sent += chunk.length) {
        sink.write(chunk.slice(0, Math.min(chunk.length, bytes - sent)));
        // Let the socket drain and a departed client be noticed.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },
  };
}

/** 200 at once, then one short comment line every `intervalMs`, for `durationMs`: slower than any scrape timeout. */
export function slowDripMetrics(
  intervalMs: number,
  durationMs: number,
  sleep: (ms: number) => Promise<void>,
): SimResponse {
  return {
    status: 200,
    headers: { 'content-type': METRICS_TYPE },
    body: '',
    json: undefined,
    stream: async (sink) => {
      for (let waited = 0; waited < durationMs && !sink.closed; waited += intervalMs) {
        sink.write('# drip\n');
        await sleep(intervalMs);
      }
    },
  };
}
