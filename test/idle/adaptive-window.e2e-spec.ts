import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type Redis from 'ioredis';
import {
  parseUsageTrace,
  replaySettingsFromEnvironment,
  replayTrace,
  type UsageTrace,
} from '@podwarden/policies';
import { RedisKeys, UsageStore } from '@podwarden/platform';
import { connectTestRedis } from '@podwarden/testing';
import { eventually } from '../support/app-process';
import { Stack } from '../support/stack';
import { REDIS_URL, TEST_OPERATOR_TOKEN } from '../support/test-env';
import { chatThrough } from '../proxy/support/proxy-client';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  SEEDED_BOOT_MS,
  actions,
  emptyVolume,
  isStopTick,
  seedDailySessions,
  seedPod,
  tickLines,
  waitForStopAndTick,
  waitForTick,
} from './support/idle-harness';

/**
 * The adaptive idle policy on real processes, minutes compressed: one-second
 * ticks, a fixed window of 0.25 min (15 ticks) and a floor of 0.05 min (3
 * ticks). The usage record is seeded with three weeks of daily sessions (ten
 * short requests 2 s apart) that all begin at the same time of day, shortly
 * after the spec starts: the policy learns the 3-tick window from those gaps,
 * and plans a pre-wake a boot and a tick before that time.
 */
const ENV = {
  ...FAST_IDLE_ENV,
  IDLE_MINUTES: '0.25',
  IDLE_POLICY: 'adaptive',
  IDLE_MIN_MINUTES: '0.05',
  PROXY_HOLD_SECONDS: '60',
};
const LEARNED_TICKS = 3;
const FIXED_TICKS = 15;
const TICK_MS = 1000;

/**
 * How far ahead of the seeding the sessions begin: the idle monitor must start and the first scenario
 * finish before the pre-wake (a boot and a tick before the session). Nothing else needs the lead, so it
 * is sized from this machine's pace: twice what starting the stack took, plus the first scenario's ticks
 * and slack; never more than the minute and a quarter it used to be.
 */
function sessionLeadMs(stackStartMs: number): number {
  return Math.min(75_000, 2 * stackStartMs + 20_000 + SEEDED_BOOT_MS + TICK_MS);
}

jest.setTimeout(300_000);

describe('adaptive idle window and pre-wake, end to end', () => {
  let stack: Stack;
  let redis: Redis;
  let usage: UsageStore;
  let sessionAt: number;
  /** When the pre-wake scenario began: the recorded run the replay is compared on starts here. */
  let runSince = 0;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  beforeAll(async () => {
    // The monitor starts after the seeding: what it learns first is the seeded record.
    const startingAt = Date.now();
    stack = await Stack.start({ name: 'adaptive', wakers: 1, idleMonitors: 0, env: ENV });
    const leadMs = sessionLeadMs(Date.now() - startingAt);
    redis = connectTestRedis(REDIS_URL);
    usage = new UsageStore(redis, new RedisKeys(stack.prefix), 28);
    // Whole seconds, so the learned slot's edges fall on the monitor's one-second tick grid.
    sessionAt = Math.ceil((Date.now() + leadMs) / 1000) * 1000;
    await seedDailySessions(usage, sessionAt);
    await stack.startIdleMonitor();
  });

  afterAll(async () => {
    redis?.disconnect();
    await stack?.stop();
  });

  it('GET shows the learned window and the idle monitor stops an unused pod at it: 3 idle ticks, not 15', async () => {
    const since = await emptyVolume(stack, monitors);
    const podId = await seedPod(stack, { id: 'learned-pod', status: 'RUNNING', vllmReady: true });
    await waitForStopAndTick(stack, podId, EVENT_DEADLINE_MS);

    const ticks = tickLines(monitors()).filter((t) => (t.scheduledAt ?? t.at) > since);
    const ready = ticks.findIndex((t) => t.phase === 'Ready');
    const stop = ticks.findIndex((t, i) => i > ready && t.phase === 'Down');
    expect(stop - ready).toBe(LEARNED_TICKS);
    expect(stop - ready).toBeLessThan(FIXED_TICKS);
    ticks
      .slice(ready + 1, stop)
      .forEach((t, i) => expect(t).toMatchObject({ signal: 'Idle', idleStreak: i + 1 }));

    const status = await stack.api<Record<string, unknown>>('GET', '/api/pods/qwen');
    expect(status.body.idleWindow).toEqual({
      minutes: 0.05,
      policy: 'adaptive',
      basis: expect.stringMatching(/^learned from 209 idle gaps over 2[01] days$/),
    });
    const next = Date.parse(String(status.body.nextPrewakeAt));
    expect(next).toBe(sessionAt - SEEDED_BOOT_MS - TICK_MS);
    const history = (await actions(stack)).filter((a) => a.podId === podId);
    expect(history.map((a) => [a.action, a.trigger, a.ok])).toEqual([['Stop', 'idle', true]]);
  });

  it('a pre-wake fires before the usual session, is recorded with trigger prewake, and the unused pod stops after its short window', async () => {
    runSince = Date.now();
    const firedBy = sessionAt - SEEDED_BOOT_MS - TICK_MS;
    const create = await eventually(
      async () => (await actions(stack)).find((a) => a.trigger === 'prewake'),
      firedBy - Date.now() + 4 * EVENT_DEADLINE_MS,
      'a RunPod write with trigger prewake',
      200,
    );
    // The stopped pod of the first scenario is still on the volume: the pre-wake starts it.
    expect(create).toMatchObject({ action: 'Start', ok: true, trigger: 'prewake' });
    expect(Date.parse(create.at)).toBeGreaterThanOrEqual(firedBy);
    expect(Date.parse(create.at)).toBeLessThan(sessionAt);
    const podId = create.podId!;
    const prewokeAt = Date.parse(create.at);
    // The same pod id was stopped in the first scenario: only a stop after the pre-wake counts.
    const stopsAfter = async () =>
      (await actions(stack)).filter(
        (a) => a.podId === podId && a.action === 'Stop' && Date.parse(a.at) > prewokeAt,
      );
    const [stopped] = await eventually(
      async () => ((await stopsAfter()).length > 0 ? stopsAfter() : undefined),
      4 * EVENT_DEADLINE_MS,
      'the stop of the pre-woken pod',
      200,
    );
    expect(stopped.trigger).toBe('idle');
    await waitForTick(
      monitors,
      (t) => isStopTick(t) && t.at >= prewokeAt,
      EVENT_DEADLINE_MS,
      'its stop tick',
    );
    // Nobody came: it stopped at its own short window after ready (a boot and a tick ahead, 3 ticks after).
    const ticks = tickLines(monitors()).filter((t) => t.at >= prewokeAt);
    const ready = ticks.findIndex((t) => t.phase === 'Ready');
    const stop = ticks.findIndex((t, i) => i > ready && t.phase === 'Down');
    expect(stop - ready).toBe(4);
    expect(
      monitors()[0]
        .messages()
        .some((m) => m.startsWith('pre-waking qwen')),
    ).toBe(true);
    // The pre-wake and its boot are in the usage record; one pre-wake today, not another.
    const record = await usage.read('qwen', Date.parse(create.at) - 1000);
    expect(record.boots.map((b) => b.prewake)).toEqual([true]);
    expect((await actions(stack)).filter((a) => a.trigger === 'prewake')).toHaveLength(1);
  });

  it('a recorded run replayed through what-if (the same policy code, from GET …/usage) gives the same stops', async () => {
    const since = Date.now();
    const proxyUrl = await stack.startProxy();
    // One conversation: three requests a second apart, through the proxy, waking the pod.
    for (let i = 0; i < 3; i += 1) {
      expect((await chatThrough(proxyUrl)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    await eventually(
      async () => ((await usage.read('qwen', since)).stops.length > 0 ? true : undefined),
      4 * EVENT_DEADLINE_MS,
      'the idle stop after the conversation',
      200,
    );
    // The run since the pre-wake: its stop and the conversation's.
    const live = (await usage.read('qwen', runSince)).stops.map((s) => s.at);
    expect(live).toHaveLength(2);

    const answer = await stack.api<UsageTrace>('GET', '/api/pods/qwen/usage', { token: 'operator' });
    expect(answer.status).toBe(200);
    const parsed = parseUsageTrace(answer.body);
    if (parsed.kind !== 'parsed') throw new Error(parsed.reason);
    const settings = replaySettingsFromEnvironment(ENV, []);
    const replayed = replayTrace(parsed.trace, 'adaptive', settings)
      .stops.map((s) => s.at)
      .filter((at) => at >= runSince);
    // The same stops: as many, each within the difference of the boots (the replay boots in the
    // median measured time, the simulator in its own) and a tick either way.
    expect(replayed).toHaveLength(live.length);
    replayed.forEach((at, i) =>
      expect(Math.abs(at - live[i])).toBeLessThanOrEqual(3 * TICK_MS + SEEDED_BOOT_MS),
    );

    // The CLI replays the same record in the contract's JSON.
    const cli = join(__dirname, '../../dist/apps/cli/main.js');
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'what-if', 'qwen'], {
      env: { ...process.env, ...ENV, PODWARDEN_URL: stack.gatewayUrl, PODWARDEN_TOKEN: TEST_OPERATOR_TOKEN },
    });
    const output = JSON.parse(stdout) as { policies: Array<Record<string, unknown>> };
    expect(output.policies.map((p) => p.policy)).toEqual(['fixed', 'adaptive']);
    const adaptive = output.policies[1];
    expect(adaptive.stopsDuringUse).toBe(0);
    expect(adaptive.windowMinutes).toMatchObject({ min: 0.05 });
  });
});
