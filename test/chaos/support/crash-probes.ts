import Redis from 'ioredis';
import { AppProcess, eventually, type LogLine } from '../../support/app-process';
import { simCalls } from '../../support/sim-admin';
import type { Stack } from '../../support/stack';

/**
 * What the crash cases need to hit a step exactly: the wake's own progress
 * record (written before each step's RunPod call, so a delay fault on that
 * call leaves the waker inside the step), and a replacement gateway.
 */
export async function wakeProgressMessage(
  stack: Stack,
  redisUrl: string,
  pod = 'qwen',
): Promise<string | null> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const raw = await redis.get(`${stack.prefix}:wake-progress:${pod}`);
    return raw === null ? null : String((JSON.parse(raw) as { message: string }).message);
  } finally {
    redis.disconnect();
  }
}

/** Resolves once the in-flight wake's progress message contains `fragment`. */
export function wakeReaches(stack: Stack, redisUrl: string, fragment: string, deadlineMs = 60_000) {
  return eventually(
    async () => ((await wakeProgressMessage(stack, redisUrl))?.includes(fragment) ? true : undefined),
    deadlineMs,
    `the wake at "${fragment}"`,
  );
}

/** Resolves once the simulator has answered `method path` (the call log was cleared when the case began). */
export function simAnswered(stack: Stack, method: string, path: string, deadlineMs = 60_000) {
  return eventually(
    async () =>
      (await simCalls(stack)).some((c) => c.method === method && c.path === path) ? true : undefined,
    deadlineMs,
    `${method} ${path} answered`,
  );
}

/**
 * Resolves with the outcome `waker` logged when it ran `attemptId` to its end
 * ('wake <outcome>: …'): proof that this process, a restarted waker, ran the
 * re-delivered job through.
 */
export async function wakeEndedIn(
  waker: AppProcess,
  attemptId: string,
  deadlineMs = 120_000,
): Promise<string> {
  const line: LogLine = await waker.waitForLine(
    (l) => l.json?.attemptId === attemptId && typeof l.json?.outcome === 'string',
    deadlineMs,
    `the end of wake ${attemptId}`,
  );
  return String(line.json?.outcome);
}

/** A gateway on the stack's port again (after a kill -9), ready before it returns. */
export async function restartGateway(stack: Stack, label: string): Promise<void> {
  stack.gateway = AppProcess.start('gateway', stack.env, label);
  await eventually(
    async () => ((await fetch(`${stack.gatewayUrl}/health/ready`).catch(() => null))?.ok ? true : undefined),
    60_000,
    'gateway up again',
  );
}
