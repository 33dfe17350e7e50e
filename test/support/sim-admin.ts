import Redis from 'ioredis';
import { eventually } from './app-process';
import { deleteKeysUnder } from './redis-cleanup';
import type { Stack } from './stack';
import { VOLUME_ID } from './stack';
import { REDIS_URL } from './test-env';

/** Simulated durations short enough for a scenario to run in seconds. */
export const FAST_TIMINGS = {
  provisioningMs: 300,
  startingMs: 300,
  gpuAttachMs: 100,
  modelLoadMs: 600,
  chatMs: 200,
  terminateMs: 0,
};

export interface SimCall {
  readonly at: string;
  readonly method: string;
  readonly path: string;
  readonly query: string | Record<string, string>;
  readonly body: unknown;
  readonly status: number;
  readonly authorized: boolean;
}

export async function resetSim(stack: Stack, patch: Record<string, unknown> = {}): Promise<void> {
  const answer = await stack.simRequest('POST', '/_sim/reset', { timings: FAST_TIMINGS, ...patch });
  if (answer.status !== 200)
    throw new Error(`sim reset failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  await forgetStatus(stack);
}

/**
 * Drops the gateways' shared status snapshots: a change made behind podwarden's back (a reset or
 * a seeded pod) is otherwise shown only once the snapshot is STATUS_MAX_AGE_MS old.
 */
export async function forgetStatus(stack: Stack): Promise<void> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    await deleteKeysUnder(redis, `${stack.prefix}:status`);
    await deleteKeysUnder(redis, `${stack.prefix}:status-refresh`);
  } finally {
    redis.disconnect();
  }
}

export async function seedPod(stack: Stack, seed: Record<string, unknown>): Promise<string> {
  const answer = await stack.simRequest<{ id: string }>('POST', '/_sim/pods', {
    volumeId: VOLUME_ID,
    ...seed,
  });
  if (answer.status !== 201) throw new Error(`seed failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.id;
}

export async function injectFault(stack: Stack, fault: Record<string, unknown>): Promise<void> {
  const answer = await stack.simRequest('POST', '/_sim/faults', fault);
  if (answer.status !== 201)
    throw new Error(`fault rejected: ${answer.status} ${JSON.stringify(answer.body)}`);
}

export async function simCalls(stack: Stack): Promise<SimCall[]> {
  const answer = await stack.simRequest<{ calls: SimCall[] }>('GET', '/_sim/calls');
  return answer.body.calls;
}

/**
 * Clears the call log once no call a delay fault holds is still open: the log takes a call when it
 * is answered, so a held DELETE of the previous case (a killed waker's, say) would otherwise land
 * in this case's log as a write nobody recorded.
 */
export async function clearSimCalls(stack: Stack): Promise<void> {
  await eventually(
    async () =>
      (await stack.simRequest<{ held: number }>('GET', '/_sim/calls/held')).body.held === 0
        ? true
        : undefined,
    60_000,
    'the calls delay faults hold answered',
  );
  await stack.simRequest('DELETE', '/_sim/calls');
}

/** The billable writes the system issued, in order: "POST /pods", "POST /pods/{id}/action start", "DELETE /pods/{id}". */
export async function simWrites(stack: Stack): Promise<string[]> {
  return (await simCalls(stack))
    .filter((c) => c.method !== 'GET')
    .map((c) => {
      const action = (c.body as { action?: string } | null)?.action;
      return `${c.method} ${c.path}${action ? ` ${action}` : ''}`;
    });
}

export interface SimPod {
  readonly id: string;
  readonly status: string;
  readonly [key: string]: unknown;
}

export async function simPods(stack: Stack): Promise<SimPod[]> {
  const answer = await stack.simRequest<{ pods: SimPod[] }>('GET', '/_sim/state');
  return answer.body.pods;
}
