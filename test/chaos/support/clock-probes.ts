import Redis from 'ioredis';
import { eventually } from '../../support/app-process';
import type { Stack } from '../../support/stack';
import { REDIS_URL, TEST_INFERENCE_TOKEN } from '../../support/test-env';
import { MODEL } from '../../proxy/support/proxy-client';
import type { TickLine } from '../../idle/support/idle-harness';

/** Minutes as milliseconds, for skews. */
export const MINUTE = 60_000;

/**
 * A /metrics that reads idle however busy the pod is (vLLM's gauges at 0, a
 * constant success counter): with it the scrape proves idleness, so only the
 * proxy's in-flight lease stands between a running request and the idle stop.
 */
export const IDLE_METRICS = [
  '# TYPE vllm:num_requests_running gauge',
  'vllm:num_requests_running{engine="0",model_name="m"} 0.0',
  '# TYPE vllm:num_requests_waiting gauge',
  'vllm:num_requests_waiting{engine="0",model_name="m"} 0.0',
  '# TYPE vllm:request_success_total counter',
  'vllm:request_success_total{engine="0",model_name="m"} 100.0',
  '',
].join('\n');

export interface StreamInFlight {
  /** Resolves with the whole stream once it ends. */
  readonly done: Promise<string>;
}

/** A streamed chat completion through a proxy, read in the background until it ends. */
export async function streamThrough(proxyUrl: string, simDurationMs: number): Promise<StreamInFlight> {
  const response = await fetch(`${proxyUrl}/qwen/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TEST_INFERENCE_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      model: MODEL,
      messages: [{ role: 'user', content: 'A long answer, please' }],
      stream: true,
      max_tokens: 64,
      sim_duration_ms: simDurationMs,
    }),
  });
  if (response.status !== 200)
    throw new Error(`stream answered ${response.status}: ${await response.text()}`);
  const done = (async () => {
    const reader = response.body!.getReader();
    let text = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += new TextDecoder().decode(chunk.value);
    }
    return text;
  })();
  done.catch(() => undefined);
  return { done };
}

/** The one pod the simulator has serving. */
export async function servingPodId(stack: Stack): Promise<string | undefined> {
  const state = await stack.simRequest<{ pods: { id: string; internal: { serving: string } }[] }>(
    'GET',
    '/_sim/state',
  );
  const ready = state.body.pods.filter((pod) => pod.internal.serving === 'ready');
  return ready.length === 1 ? ready[0].id : undefined;
}

/** When the simulator received the stop of `podId` (its clock is the real one), once it has. */
export async function stopCallAt(stack: Stack, podId: string, timeoutMs: number): Promise<number> {
  return eventually(
    async () => {
      const calls = await stack.simRequest<{
        calls: { at: string; method: string; path: string; body: unknown }[];
      }>('GET', '/_sim/calls');
      const stop = calls.body.calls.find(
        (c) =>
          c.method === 'POST' &&
          c.path === `/pods/${podId}/action` &&
          (c.body as { action?: string } | null)?.action === 'stop',
      );
      return stop === undefined ? undefined : Date.parse(stop.at);
    },
    timeoutMs,
    `the stop of ${podId}`,
  );
}

/** A tick line's time on the real clock: the monitor logged it on its own, `skewMs` off. */
export function realTime(tick: TickLine, skewMs: number): number {
  return (tick.scheduledAt ?? tick.at) - skewMs;
}

/** The budget ledger as Redis holds it: open reservations and the spent counter of every day. */
export async function ledgerKeys(
  stack: Stack,
): Promise<{ open: Record<string, string>; spent: Record<string, number> }> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    const open = await redis.hgetall(`${stack.prefix}:budget:open`);
    const dayKeys = await redis.keys(`${stack.prefix}:budget:spent:*`);
    const spent: Record<string, number> = {};
    for (const key of dayKeys) spent[key.slice(key.lastIndexOf(':') + 1)] = Number(await redis.get(key));
    return { open, spent };
  } finally {
    redis.disconnect();
  }
}

/** Milliseconds from now to `offsetMs` past the next UTC midnight: a skew that puts a clock just past it. */
export function skewToPastMidnight(offsetMs: number, now = Date.now()): number {
  const nextMidnight = Math.ceil(now / 86_400_000) * 86_400_000;
  return nextMidnight + offsetMs - now;
}
