import { eventually } from '../support/app-process';
import { Stack } from '../support/stack';
import type { SseClient } from '../support/sse-client';
import { actions, stopCalls, tickLines, waitForTick } from '../idle/support/idle-harness';
import { runCli } from '../cli/support/cli-process';
import { stackEnv } from '../cli/support/cli-env';

/**
 * A boot that goes wrong, diagnosed from the pod's own logs on real processes.
 * The simulator runs 60× fast, so a restart every simulated minute is one a
 * second. Each case wakes a pod whose logs tell one story; the idle monitor
 * reads a bounded tail after two booting ticks and classifies it. A restart
 * loop is stopped at once (trigger restart-loop) long before the minute of
 * boot grace; a cold pull is left alone.
 */
jest.setTimeout(240_000);

const DEADLINE = 60_000;
const TIMINGS = {
  provisioningMs: 6_000,
  startingMs: 6_000,
  gpuAttachMs: 6_000,
  modelLoadMs: 60_000,
  chatMs: 2_000,
  terminateMs: 0,
  billingLagMs: 0,
};

interface Diagnosis {
  readonly podId: string;
  readonly at: string;
  readonly kind: string;
  readonly evidence: string[];
  readonly summary: string;
}

describe('boot diagnosis from pod logs', () => {
  let stack: Stack;
  let stream: SseClient;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'guard-boot-diagnosis',
      wakers: 1,
      idleMonitors: 1,
      env: {
        CHECK_SECONDS: '1',
        IDLE_MINUTES: '5',
        RUNPOD_BOOT_GRACE_MINUTES: '1',
        BOOT_DIAGNOSE_TICKS: '2',
        BILLING_RECONCILE_SECONDS: '3600',
        WAKE_MAX_POLLS: '300',
      },
    });
    stream = await stack.eventStream('/api/pods/qwen/events');
  });

  afterAll(async () => {
    await stream?.close();
    await stack?.stop();
  });

  /** A fresh simulator whose next created pod tells `story`; the wake creates it. Answers its id. */
  async function wakeInto(story: string, timings: Record<string, number> = TIMINGS): Promise<string> {
    expect((await stack.simRequest('POST', '/_sim/reset', { speed: 60, timings })).status).toBe(200);
    expect((await stack.simRequest('POST', '/_sim/logs', { scenario: story })).status).toBe(200);
    const start = await stack.api<{ outcome: string; podId: string }>('POST', '/api/pods/qwen/start', {
      token: 'operator',
    });
    expect([200, 202]).toContain(start.status);
    return eventually(
      async () => {
        const status = await stack.api<{ podId: string | null }>('GET', '/api/pods/qwen');
        return status.body.podId ?? undefined;
      },
      DEADLINE,
      'the created pod',
    );
  }

  /** Stops recorded since `since` (the simulator reuses pod ids after a reset, so time tells the cases apart). */
  async function stopsSince(since: number) {
    return (await actions(stack)).filter((a) => a.action === 'Stop' && Date.parse(a.at) >= since);
  }

  /**
   * Waits until the monitor has logged `count` tick lines since the diagnosis was kept: the first is the
   * tick that made it (a restart loop is stopped by that tick, before its line), the next ones looked at
   * the pod again; a stop they decided is recorded by then. Log reads make these ticks seconds apart.
   */
  async function ticksAfter(diagnosis: Diagnosis, count: number): Promise<void> {
    const at = Date.parse(diagnosis.at);
    await waitForTick(
      () => stack.idleMonitors,
      () => tickLines(stack.idleMonitors).filter((t) => t.at >= at).length >= count,
      DEADLINE,
      `${count} tick lines after the ${diagnosis.kind} diagnosis`,
    );
  }

  async function diagnosisOf(podId: string, kind: string): Promise<Diagnosis> {
    return eventually(
      async () => {
        const answer = await stack.api<Diagnosis | null>('GET', '/api/pods/qwen/diagnosis', {
          token: 'operator',
        });
        return answer.body !== null && answer.body.podId === podId && answer.body.kind === kind
          ? answer.body
          : undefined;
      },
      DEADLINE,
      `${kind} diagnosis of ${podId}`,
    );
  }

  it('a restart loop is diagnosed, redacted and stopped at once with trigger restart-loop, recorded', async () => {
    const podId = await wakeInto('restart-loop');
    const diagnosis = await diagnosisOf(podId, 'restart-loop');
    expect(diagnosis.summary).toMatch(/^restart loop: \d+ container starts over \d+ min/);
    expect(diagnosis.evidence[0]).toBe(`start container ${podId}: begin`);
    // The repeated error echoed the pod's Hugging Face token: redacted before it was kept.
    expect(diagnosis.evidence.at(-1)).toMatch(/Permission denied: .*HF_TOKEN=\[redacted\]\)$/);
    expect(JSON.stringify(diagnosis)).not.toContain('hf_SimLeakedToken');

    const stop = await eventually(
      async () => (await actions(stack)).find((a) => a.action === 'Stop' && a.podId === podId),
      DEADLINE,
      'the restart-loop stop',
    );
    expect(stop).toMatchObject({ trigger: 'restart-loop', ok: true });
    const created = (await actions(stack)).find((a) => a.action === 'Create' && a.podId === podId);
    // Stopped within seconds of the create, not after the minute of boot grace.
    expect(Date.parse(stop.at) - Date.parse(String(created?.at))).toBeLessThan(45_000);
    expect((await actions(stack)).filter((a) => a.trigger === 'boot-grace')).toEqual([]);
    expect((await stopCalls(stack)).length).toBe(1);
    await stream.waitFor(
      'stop event',
      (e) => e.event === 'stop' && stream.data(e).trigger === 'restart-loop',
    );
    await stream.waitFor(
      'boot-diagnosis event',
      (e) => e.event === 'boot-diagnosis' && stream.data(e).kind === 'restart-loop',
    );

    // Kept with the run: lastWake.reason, the run in /history, the CLI.
    const status = await stack.api<{ lastWake: { reason: string } }>('GET', '/api/pods/qwen');
    expect(status.body.lastWake.reason).toContain(`boot diagnosis (restart-loop): ${diagnosis.summary}`);
    const history = await stack.api<{
      runs: { podId: string; stopTrigger: string; diagnosis: { kind: string } | null }[];
    }>('GET', '/api/pods/qwen/history');
    expect(history.body.runs[0]).toMatchObject({
      podId,
      stopTrigger: 'restart-loop',
      diagnosis: { kind: 'restart-loop' },
    });
    const cli = await runCli(['diagnose', 'qwen'], stackEnv(stack));
    expect(cli.code).toBe(0);
    expect(cli.json).toEqual({ name: 'qwen', diagnosis });
  });

  it('a cold pull is diagnosed and left alone: no stop while it pulls', async () => {
    const since = Date.now();
    const podId = await wakeInto('cold-pull');
    const diagnosis = await diagnosisOf(podId, 'cold-pull');
    expect(diagnosis.evidence.at(-1)).toMatch(/^Downloading layer/);
    await ticksAfter(diagnosis, 2);
    expect(await stopsSince(since)).toEqual([]);
    expect(
      (await stack.api<Diagnosis>('GET', '/api/pods/qwen/diagnosis', { token: 'operator' })).body.kind,
    ).toBe('cold-pull');
  });

  it('an application crash is an application failure with its error as evidence, not stopped early', async () => {
    const since = Date.now();
    const podId = await wakeInto('app-crash');
    const diagnosis = await diagnosisOf(podId, 'application-failure');
    expect(diagnosis.evidence).toContain(
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 GiB',
    );
    await ticksAfter(diagnosis, 2);
    expect(await stopsSince(since)).toEqual([]);
  });

  it('a container making progress while the control plane shows no runtime is control-plane lag', async () => {
    // The GPU takes five real seconds to attach: RUNNING without a runtime while vLLM already logs.
    const podId = await wakeInto('normal', { ...TIMINGS, gpuAttachMs: 300_000 });
    const diagnosis = await diagnosisOf(podId, 'control-plane-lag');
    expect(diagnosis.evidence).toContain('INFO Starting vLLM API server on http://0.0.0.0:8000');
    expect(diagnosis.summary).toMatch(/control plane still reports RUNNING without a runtime/);
  });
});
