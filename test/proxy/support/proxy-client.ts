import { TEST_INFERENCE_TOKEN } from '../../support/test-env';

export const MODEL = 'Qwen/Qwen2.5-32B-Instruct-AWQ';

export interface ProxyAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Record<string, unknown>;
}

/** One chat completion through a proxy, as an OpenAI client sends it (the client token as a bearer). */
export async function chatThrough(
  proxyUrl: string,
  body: Record<string, unknown> = {},
  token: string = TEST_INFERENCE_TOKEN,
  signal?: AbortSignal,
): Promise<ProxyAnswer> {
  const response = await fetch(`${proxyUrl}/qwen/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], ...body }),
    signal,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: JSON.parse(text) as Record<string, unknown>,
  };
}

/** A sample of the proxy's /metrics (0 when the series is not there yet). */
export async function proxyMetric(proxyUrl: string, series: string): Promise<number> {
  const text = await (await fetch(`${proxyUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}
