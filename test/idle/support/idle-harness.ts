import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Redis from 'ioredis';
import type { UsageStore } from '@podwarden/platform';
import { connectTestRedis } from '@podwarden/testing';
import type { AppProcess } from '../../support/app-process';
import { VOLUME_ID, type Stack } from '../../support/stack';
import { REDIS_URL, TEST_API_KEY } from '../../support/test-env';

/**
 * What the idle e2e specs share: reading the idle monitor's per-tick debug
 * lines, driving the simulator's admin API, and reading the gateway's view of
 * a pod. Kept here rather than in test/support so the idle specs own it.
 */

/** Simulated durations (ms at speed 1) short enough for a whole boot in a few ticks. */
export const IDLE_TEST_TIMINGS = {
  provisioningMs: 1_000,
  startingMs: 1_000,
  gpuAttachMs: 0,
  modelLoadMs: 3_000,
  chatMs: 200,
  terminateMs: 0,
};

/** The env every idle spec starts from: one-second ticks, a six-tick idle window. */
export const FAST_IDLE_ENV: Record<string, string> = {
  CHECK_SECONDS: '1',
  IDLE_MINUTES: '0.1',
  RUNPOD_BOOT_GRACE_MINUTES: '1',
  MAX_RUNTIME_MINUTES: '360',
};

/** Idle observations that stop a pod under FAST_IDLE_ENV: ceil(0.1 min × 60 / 1 s). */
export const WINDOW_TICKS = 6;

/**
 * How long a spec waits for an event a few ticks away: far longer than the
 * ticks themselves, so a busy machine that runs ticks late still passes.
 * Specs assert the order and count of what happened, never how fast.
 */
export const EVENT_DEADLINE_MS = 30_000;

export type Signal = 'Busy' | 'Idle' | 'UnreachableButRunning' | 'Booting' | 'NotRunning' | 'Unknown';
export type Phase = 'Down' | 'Booting' | 'Ready';

/** One 'idle tick' debug line: what one tick of one pod observed and left behind. */
export interface TickLine {
  /** When the line was logged (epoch ms). */
  readonly at: number;
  /** When the tick was scheduled (epoch ms, from the scheduler's job id). */
  readonly scheduledAt: number | null;
  readonly monitor: string;
  readonly pod: string;
  readonly tickId: string;
  readonly signal: Signal;
  readonly phase: Phase;
  readonly idleStreak: number;
  readonly bootingTicks: number;
}

/** Tick lines of ticks scheduled after `since` (epoch ms), across every monitor process. */
export function ticksSince(monitors: readonly AppProcess[], since: number, pod = 'qwen'): TickLine[] {
  return tickLines(monitors, pod).filter((t) => (t.scheduledAt ?? t.at) > since);
}

/** Every 'idle tick' line of `pod` across the given monitors, in tick order. */
export function tickLines(monitors: readonly AppProcess[], pod = 'qwen'): TickLine[] {
  const ticks: TickLine[] = [];
  for (const monitor of monitors) {
    for (const line of monitor.lines) {
      const json = line.json;
      if (json === null || line.msg !== 'idle tick' || json.pod !== pod) continue;
      const tickId = String(json.tickId);
      const scheduled = /:(\d{10,})$/.exec(tickId);
      ticks.push({
        at: Date.parse(String(json.time)),
        scheduledAt: scheduled ? Number(scheduled[1]) : null,
        monitor: monitor.name,
        pod,
        tickId,
        signal: json.signal as Signal,
        phase: json.phase as Phase,
        idleStreak: Number(json.idleStreak),
        bootingTicks: Number(json.bootingTicks),
      });
    }
  }
  return ticks.sort((a, b) => (a.scheduledAt ?? a.at) - (b.scheduledAt ?? b.at) || a.at - b.at);
}

/** Log messages of the given monitors containing `fragment`. */
export function messagesWith(monitors: readonly AppProcess[], fragment: string): string[] {
  return monitors.flatMap((m) => m.messages().filter((msg) => msg.includes(fragment)));
}

/** A compact tick table for failure messages and the docs. */
export function formatTicks(ticks: readonly TickLine[], origin: number = ticks[0]?.at ?? 0): string {
  return ticks
    .map(
      (t) =>
        `${((t.at - origin) / 1000).toFixed(2).padStart(7)}s ${t.monitor.padEnd(18)} ${t.signal.padEnd(21)} ${t.phase.padEnd(8)} streak=${t.idleStreak} booting=${t.bootingTicks}`,
    )
    .join('\n');
}

export async function resetSim(stack: Stack, patch: Record<string, unknown> = {}): Promise<void> {
  const answer = await stack.simRequest('POST', '/_sim/reset', { timings: IDLE_TEST_TIMINGS, ...patch });
  if (answer.status !== 200) throw new Error(`sim reset: ${answer.status} ${JSON.stringify(answer.body)}`);
}

export async function seedPod(stack: Stack, seed: Record<string, unknown>): Promise<string> {
  const answer = await stack.simRequest<{ id: string }>('POST', '/_sim/pods', {
    volumeId: VOLUME_ID,
    ...seed,
  });
  if (answer.status !== 201) throw new Error(`sim seed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.id;
}

export async function setVllm(stack: Stack, podId: string, behaviour: string): Promise<void> {
  const answer = await stack.simRequest('POST', `/_sim/pods/${podId}/vllm`, { behaviour });
  if (answer.status !== 200) throw new Error(`sim vllm: ${answer.status} ${JSON.stringify(answer.body)}`);
}

export async function addFault(stack: Stack, fault: Record<string, unknown>): Promise<void> {
  const answer = await stack.simRequest('POST', '/_sim/faults', fault);
  if (answer.status !== 201) throw new Error(`sim fault: ${answer.status} ${JSON.stringify(answer.body)}`);
}

export interface SimCall {
  readonly seq: number;
  readonly at: string;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly status: number;
  readonly fault: string | null;
}

export async function simCalls(
  stack: Stack,
  filter: { method?: string; path?: string } = {},
): Promise<SimCall[]> {
  const query = new URLSearchParams();
  if (filter.method) query.set('method', filter.method);
  if (filter.path) query.set('path', filter.path);
  const answer = await stack.simRequest<{ calls: SimCall[] }>('GET', `/_sim/calls?${query.toString()}`);
  return answer.body.calls;
}

/** The stop calls the simulator received, as pod ids in order. */
export async function stopCalls(stack: Stack): Promise<SimCall[]> {
  const calls = await simCalls(stack, { method: 'POST' });
  return calls.filter(
    (c) =>
      /^\/pods\/[^/]+\/action$/.test(c.path) &&
      typeof c.body === 'object' &&
      c.body !== null &&
      (c.body as { action?: unknown }).action === 'stop',
  );
}

export function podIdOfCall(call: SimCall): string {
  return call.path.split('/')[2];
}

export interface SimPodState {
  readonly id: string;
  readonly status: string;
  readonly internal: {
    readonly lifecycle: {
      kind: string;
      startedAt?: number;
      startingAt?: number;
      runningAt?: number;
      attachedAt?: number;
      readyAt?: number;
      since?: number;
    };
    readonly serving: string;
    readonly behaviour: string;
    readonly vllm: { generation: number; startedAt: number } | null;
  };
}

export async function simPod(stack: Stack, podId: string): Promise<SimPodState> {
  const answer = await stack.simRequest<{ pods: SimPodState[] }>('GET', '/_sim/state');
  const pod = answer.body.pods.find((p) => p.id === podId);
  if (pod === undefined) throw new Error(`no pod ${podId} in the simulator`);
  return pod;
}

/** A chat turn through the pod proxy, lasting `durationMs` simulated ms. Resolves with the HTTP status. */
export async function chat(stack: Stack, podId: string, durationMs: number, port = 8000): Promise<number> {
  const response = await fetch(`${stack.simUrl}/proxy/${podId}-${port}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      model: 'qwen',
      messages: [{ role: 'user', content: 'hello there' }],
      sim_duration_ms: durationMs,
    }),
  });
  await response.text();
  return response.status;
}

export interface ActionItem {
  readonly at: string;
  readonly action: string;
  readonly podId: string | null;
  readonly ok: boolean;
  readonly trigger: string;
  readonly httpStatus: number;
  readonly detail: string | null;
}

export async function actions(stack: Stack, pod = 'qwen'): Promise<ActionItem[]> {
  const answer = await stack.api<{ actions: ActionItem[] }>('GET', `/api/pods/${pod}/history?limit=100`);
  if (answer.status !== 200) throw new Error(`history: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.actions;
}

export interface PodStatusView {
  readonly status: string;
  readonly isRunning: boolean;
  readonly podId: string | null;
  readonly readySince: string | null;
  readonly idleStopAt?: string | null;
  readonly runtimeCapAt?: string | null;
  readonly stopConfirmed?: boolean | null;
}

export async function podStatus(stack: Stack, pod = 'qwen'): Promise<PodStatusView> {
  const answer = await stack.api<PodStatusView>('GET', `/api/pods/${pod}`);
  if (answer.status !== 200) throw new Error(`GET pod: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The idle record the monitors share, read straight from Redis (to check GET against it). */
export interface StoredIdleRecord {
  readonly state: {
    phase: Phase;
    idleStreak: number;
    bootingTicks: number;
    upSince: number | null;
    bootStartedAt: number | null;
    readySince: number | null;
    lastTickAt: number | null;
  };
  readonly updatedAt: number | null;
  readonly lastTickId: string | null;
}

export class IdleStateReader {
  private readonly redis: Redis = connectTestRedis(REDIS_URL);

  constructor(private readonly prefix: string) {}

  async read(pod = 'qwen'): Promise<StoredIdleRecord | null> {
    const raw = await this.redis.get(`${this.prefix}:idle-state:${pod.toLowerCase()}`);
    return raw === null ? null : (JSON.parse(raw) as StoredIdleRecord);
  }

  close(): void {
    this.redis.disconnect();
  }
}

/** How long each seeded boot took: a pre-wake is planned this long (and a tick) before a session. */
export const SEEDED_BOOT_MS = 6_000;

const DAY_MS = 86_400_000;

/**
 * Seeds three weeks of daily sessions of `pod` at `sessionAt`'s time of day
 * (a boot, then ten short requests 2 s apart), so the adaptive policy learns
 * a window from those gaps and plans a pre-wake before the next one.
 */
export async function seedDailySessions(usage: UsageStore, sessionAt: number, pod = 'qwen'): Promise<void> {
  for (let day = 21; day >= 1; day -= 1) {
    const start = sessionAt - day * DAY_MS;
    await usage.recordBoot(pod, {
      wakeAt: start - SEEDED_BOOT_MS,
      readyAt: start,
      gpuId: 'NVIDIA A40',
      pricePerHour: 0.79,
      prewake: false,
    });
    for (let k = 0; k < 10; k += 1) {
      await usage.recordUse(pod, { start: start + k * 2000, end: start + k * 2000 + 500 });
    }
  }
}

/** Writes a PODS_CONFIG file and returns its path. */
export function writePodsConfig(pods: ReadonlyArray<Record<string, unknown>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'podwarden-idle-'));
  const path = join(dir, 'pods.json');
  writeFileSync(path, JSON.stringify({ pods }));
  return path;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until some tick line satisfies the predicate. */
export async function waitForTick(
  monitors: () => readonly AppProcess[],
  predicate: (tick: TickLine) => boolean,
  timeoutMs: number,
  what: string,
  pod = 'qwen',
): Promise<TickLine> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = tickLines(monitors(), pod).find(predicate);
    if (found !== undefined) return found;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${what}; ticks so far:\n${formatTicks(tickLines(monitors(), pod))}`,
      );
    }
    await sleep(50);
  }
}

/** Starts a stopped pod straight through the simulator's REST v2 (the same id comes back with a new process). */
export async function startPodDirectly(stack: Stack, podId: string): Promise<number> {
  const response = await fetch(`${stack.simUrl}/v2/pods/${podId}/action`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_API_KEY}` },
    body: JSON.stringify({ action: 'start' }),
  });
  await response.text();
  return response.status;
}

/**
 * Empties the simulator (with `patch` applied) and waits until a monitor has
 * ticked NotRunning since, so the shared idle state is back to Down before a
 * scenario seeds its pod.
 */
export async function emptyVolume(
  stack: Stack,
  monitors: () => readonly AppProcess[],
  patch: Record<string, unknown> = {},
  pod = 'qwen',
): Promise<number> {
  const resetAt = Date.now();
  await resetSim(stack, patch);
  await waitForTick(
    monitors,
    (t) => t.scheduledAt !== null && t.scheduledAt > resetAt && t.signal === 'NotRunning',
    EVENT_DEADLINE_MS,
    'a NotRunning tick after the reset',
    pod,
  );
  return Date.now();
}

/** The tick that stopped a pod: an up signal that left the phase Down (only an accepted stop does that). */
export function isStopTick(tick: TickLine): boolean {
  return tick.phase === 'Down' && tick.signal !== 'NotRunning' && tick.signal !== 'Unknown';
}

/**
 * Waits for a Stop of `podId` in the history and then for the tick line of
 * that stop: the action is recorded inside the tick, before its debug line is
 * written, so reading the ticks as soon as the history shows the stop can miss it.
 */
export async function waitForStopAndTick(
  stack: Stack,
  podId: string,
  timeoutMs: number,
  pod = 'qwen',
): Promise<{ stops: ActionItem[]; stopTick: TickLine }> {
  const deadline = Date.now() + timeoutMs;
  let stops: ActionItem[];
  for (;;) {
    stops = (await actions(stack, pod)).filter((a) => a.action === 'Stop' && a.podId === podId);
    if (stops.length > 0) break;
    if (Date.now() > deadline) {
      throw new Error(
        `no Stop of ${podId} within ${timeoutMs} ms; ticks:\n${formatTicks(tickLines(stack.idleMonitors, pod).slice(-20))}`,
      );
    }
    await sleep(50);
  }
  const recordedAt = Date.parse(stops[stops.length - 1].at);
  const stopTick = await waitForTick(
    () => stack.idleMonitors,
    (t) => isStopTick(t) && t.at >= recordedAt,
    EVENT_DEADLINE_MS,
    `the tick line of the stop of ${podId}`,
    pod,
  );
  return { stops, stopTick };
}

/** The vLLM gauge of requests in flight, as the simulated pod's /metrics reports it right now. */
export async function requestsRunning(stack: Stack, podId: string, port = 8000): Promise<number> {
  const text = await (await fetch(`${stack.simUrl}/proxy/${podId}-${port}/metrics`)).text();
  const match = /^vllm:num_requests_running\{[^}]*\} (\S+)$/m.exec(text);
  return match === null ? Number.NaN : Number(match[1]);
}

/** A chat turn held in flight until `finish()`: the simulator's clock is sped up until it ends, then restored. */
export interface HeldChat {
  /** Test-process time by which the simulator had the request in flight. */
  readonly inFlightAt: number;
  /** Ends the turn; resolves with its HTTP status and the test-process time it was answered. */
  finish(): Promise<{ status: number; endedAt: number }>;
}

export async function holdChat(stack: Stack, podId: string): Promise<HeldChat> {
  const answered = chat(stack, podId, 3_600_000).then((status) => ({ status, endedAt: Date.now() }));
  // Awaited in finish(); a test that fails before then must not leave an unhandled rejection behind.
  answered.catch(() => undefined);
  const inFlightAt = await waitFor(
    async () => ((await requestsRunning(stack, podId)) >= 1 ? Date.now() : undefined),
    'the chat in flight',
  );
  return {
    inFlightAt,
    finish: async () => {
      const sped = await stack.simRequest('PUT', '/_sim/config', { speed: 100_000 });
      if (sped.status !== 200) throw new Error(`sim speed: ${sped.status}`);
      try {
        return await answered;
      } finally {
        await stack.simRequest('PUT', '/_sim/config', { speed: 1 });
      }
    },
  };
}

/** Polls until the check answers a value, with the generous event deadline. */
export async function waitFor<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = EVENT_DEADLINE_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Waits for the next tick line of `pod` after `after` (the tick line, or an epoch time). */
export function nextTick(
  monitors: () => readonly AppProcess[],
  after: TickLine | number,
  pod = 'qwen',
): Promise<TickLine> {
  const at = typeof after === 'number' ? after : after.at;
  return waitForTick(monitors, (t) => t.at > at, EVENT_DEADLINE_MS, 'the next tick', pod);
}
