import { eventually } from '../support/app-process';
import { Stack, VOLUME_ID } from '../support/stack';
import {
  FAST_IDLE_ENV,
  actions,
  emptyVolume,
  formatTicks,
  messagesWith,
  podIdOfCall,
  podStatus,
  seedPod,
  setVllm,
  sleep,
  stopCalls,
  tickLines,
  waitForTick,
  writePodsConfig,
  type ActionItem,
  type TickLine,
  waitForStopAndTick,
  WINDOW_TICKS,
} from './support/idle-harness';

/**
 * The guards that stop a pod nobody can use: a vLLM that died after serving
 * (UnreachableButRunning accrues like idle), a vLLM that never answers (boot
 * grace), and the wall-clock cap (boot grace off, or a phantom request that
 * keeps the gauge busy forever). Four configured pods on four volumes run at
 * once so the one-minute cap is waited out only once; the monitor is killed
 * (SIGKILL) and restarted half-way, so the cap must also survive a restart.
 *
 * Environment: MAX_RUNTIME_MINUTES=1 and RUNPOD_BOOT_GRACE_MINUTES=0 for every
 * pod unless its PODS_CONFIG entry says otherwise.
 */
const CAP_MS = 60_000;
const VOLUMES = {
  qwen: VOLUME_ID,
  neverready: 'vol-never-ready',
  nograce: 'vol-no-grace',
  phantom: 'vol-phantom',
};

jest.setTimeout(120_000);

describe('dead models and the runtime cap', () => {
  let stack: Stack;
  let seededAt = 0;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  beforeAll(async () => {
    const podsConfig = writePodsConfig([
      // A vLLM that dies after serving: caught by the idle window; the cap is off so only the window can stop it.
      { name: 'qwen', volumeId: VOLUMES.qwen, idleMinutes: 0.1, bootGraceMinutes: 1, maxRuntimeMinutes: 0 },
      // A vLLM that never answers: caught by a three-tick boot grace (0.05 min at 1 s ticks).
      { name: 'neverready', volumeId: VOLUMES.neverready, bootGraceMinutes: 0.05, maxRuntimeMinutes: 0 },
      // The same with boot grace off (the environment's 0): only the cap (the environment's 1 min) stops it.
      { name: 'nograce', volumeId: VOLUMES.nograce },
      // A wedged vLLM reporting a request forever: busy on every tick, only the cap stops it.
      { name: 'phantom', volumeId: VOLUMES.phantom, idleMinutes: 0.1 },
    ]);
    stack = await Stack.start({
      name: 'idle-guards',
      idleMonitors: 1,
      env: {
        ...FAST_IDLE_ENV,
        PODS_CONFIG: podsConfig,
        MAX_RUNTIME_MINUTES: '1',
        RUNPOD_BOOT_GRACE_MINUTES: '0',
      },
    });
    await emptyVolume(stack, monitors, {
      volumes: Object.values(VOLUMES).map((id) => ({ id, dataCenterId: 'EU-RO-1' })),
    });
    // Ticks scheduled from here on may see the pods (those before the seeds land read NotRunning).
    seededAt = Date.now();
    await Promise.all([
      seedPod(stack, {
        id: 'dies-after-serving',
        volumeId: VOLUMES.qwen,
        status: 'RUNNING',
        vllmReady: true,
      }),
      seedPod(stack, {
        id: 'never-ready-pod',
        volumeId: VOLUMES.neverready,
        status: 'RUNNING',
        vllmReady: false,
        behaviour: 'never-ready',
      }),
      seedPod(stack, {
        id: 'no-grace-pod',
        volumeId: VOLUMES.nograce,
        status: 'RUNNING',
        vllmReady: false,
        behaviour: 'never-ready',
      }),
      seedPod(stack, {
        id: 'phantom-pod',
        volumeId: VOLUMES.phantom,
        status: 'RUNNING',
        behaviour: 'phantom-busy',
      }),
    ]);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** This pod's ticks from its first up observation on. */
  function ticksOf(pod: string): TickLine[] {
    const ticks = tickLines(monitors(), pod).filter((t) => (t.scheduledAt ?? t.at) > seededAt);
    const firstUp = ticks.findIndex((t) => t.signal !== 'NotRunning');
    return firstUp < 0 ? [] : ticks.slice(firstUp);
  }

  /** Waits for the stop of `podId` and its tick line, then answers every Stop recorded for `pod`. */
  async function stopsOf(pod: string, podId: string, timeoutMs: number): Promise<ActionItem[]> {
    await waitForStopAndTick(stack, podId, timeoutMs, pod);
    return (await actions(stack, pod)).filter((a) => a.action === 'Stop');
  }

  it('a vLLM that died after serving is stopped: UnreachableButRunning accrues in Ready like idle', async () => {
    const ready = await waitForTick(monitors, (t) => t.phase === 'Ready', 10_000, 'qwen ready', 'qwen');
    await setVllm(stack, 'dies-after-serving', 'dead');
    const stops = await stopsOf('qwen', 'dies-after-serving', 15_000);
    expect(stops.map((a) => [a.podId, a.trigger, a.ok])).toEqual([['dies-after-serving', 'idle', true]]);

    const ticks = ticksOf('qwen');
    const readyIndex = ticks.indexOf(ticks.find((t) => t.tickId === ready.tickId)!);
    const stopIndex = ticks.findIndex((t, i) => i > readyIndex && t.phase === 'Down');
    const accruing = ticks.slice(readyIndex + 1, stopIndex + 1);
    expect(stopIndex - readyIndex).toBe(WINDOW_TICKS);
    expect(accruing.slice(0, -1).map((t) => t.idleStreak)).toEqual([1, 2, 3, 4, 5]);
    // The dead process answers nothing: from the kill on, every tick is RUNNING-without-metrics.
    expect(accruing.filter((t) => t.signal === 'UnreachableButRunning').length).toBeGreaterThanOrEqual(
      WINDOW_TICKS - 1,
    );
    expect(accruing.every((t) => t.signal === 'UnreachableButRunning' || t.signal === 'Idle')).toBe(true);
  });

  it('a vLLM that never answers is stopped by boot grace after ceil(0.05 × 60 / 1) = 3 booting ticks, and never logged ready', async () => {
    const stops = await stopsOf('neverready', 'never-ready-pod', 15_000);
    expect(stops.map((a) => [a.podId, a.trigger, a.ok])).toEqual([['never-ready-pod', 'boot-grace', true]]);
    const ticks = ticksOf('neverready');
    const stopIndex = ticks.findIndex((t) => t.phase === 'Down' && t.signal === 'UnreachableButRunning');
    expect(ticks.slice(0, stopIndex + 1).map((t) => `${t.signal}/${t.phase}/${t.bootingTicks}`)).toEqual([
      'UnreachableButRunning/Booting/1',
      'UnreachableButRunning/Booting/2',
      'UnreachableButRunning/Down/0',
    ]);
    expect(ticks.some((t) => t.phase === 'Ready')).toBe(false);
    expect(messagesWith(monitors(), 'pod never-ready-pod ready after')).toEqual([]);
  });

  it('with boot grace 0, a never-ready pod is left to the cap: one runtime-cap stop at upSince + 1 min, also across a monitor killed with SIGKILL and restarted', async () => {
    const capBefore = await eventually(
      async () => (await podStatus(stack, 'nograce')).runtimeCapAt ?? undefined,
      5_000,
      'nograce runtimeCapAt',
    );
    const firstUp = ticksOf('nograce').find((t) => t.phase === 'Booting')!;
    // Kill half-way through the cap, just after a tick has finished, and start a new monitor.
    await sleep(Math.max(0, seededAt + 25_000 - Date.now()));
    const lastTick = tickLines(monitors(), 'nograce').slice(-1)[0];
    await waitForTick(monitors, (t) => t.at > lastTick.at, 3_000, 'a fresh tick', 'nograce');
    await stack.idleMonitors[0].kill9();
    const killedAt = Date.now();
    await stack.startIdleMonitor();
    expect((await podStatus(stack, 'nograce')).runtimeCapAt).toBe(capBefore);

    const stops = await stopsOf('nograce', 'no-grace-pod', 60_000);
    expect(stops.map((a) => [a.podId, a.trigger, a.ok])).toEqual([['no-grace-pod', 'runtime-cap', true]]);
    const ticks = ticksOf('nograce');
    const stopTick = ticks.find((t) => t.phase === 'Down' && t.at > firstUp.at)!;
    // Booting the whole time, far past any boot budget, and no boot-grace stop.
    const booting = ticks.filter((t) => t.at < stopTick.at);
    expect(booting.every((t) => t.phase === 'Booting' && t.signal === 'UnreachableButRunning')).toBe(true);
    expect(Math.max(...booting.map((t) => t.bootingTicks))).toBeGreaterThanOrEqual(50);
    expect(booting.some((t) => t.monitor !== firstUp.monitor && t.at > killedAt)).toBe(true);
    // On the restored clock, not a minute after the restart.
    const stopCall = (await stopCalls(stack)).find((c) => podIdOfCall(c) === 'no-grace-pod')!;
    const capAt = Date.parse(capBefore);
    expect(capAt - (firstUp.scheduledAt ?? firstUp.at)).toBeGreaterThanOrEqual(CAP_MS);
    expect(capAt - firstUp.at).toBeLessThanOrEqual(CAP_MS);
    expect(Date.parse(stopCall.at)).toBeGreaterThanOrEqual(capAt);
    expect(Date.parse(stopCall.at) - capAt).toBeLessThan(2_000);
    if (process.env.IDLE_E2E_TABLE) process.stdout.write(`\n${formatTicks(ticks.slice(-8))}\n`);
  });

  it('the cap stops a phantom-busy pod that never reads idle', async () => {
    const stops = await stopsOf('phantom', 'phantom-pod', 30_000);
    expect(stops.map((a) => [a.podId, a.trigger, a.ok])).toEqual([['phantom-pod', 'runtime-cap', true]]);
    const ticks = ticksOf('phantom');
    const stopTick = ticks.find((t) => t.phase === 'Down')!;
    const before = ticks.filter((t) => t.at < stopTick.at);
    expect(before.every((t) => t.signal === 'Busy' && t.idleStreak === 0 && t.phase === 'Ready')).toBe(true);
    expect(stopTick.at - before[0].at).toBeGreaterThanOrEqual(CAP_MS - 1_000);
    expect(stopTick.at - before[0].at).toBeLessThan(CAP_MS + 2_000);
    const after = await podStatus(stack, 'phantom');
    expect(after).toMatchObject({ readySince: null, idleStopAt: null, runtimeCapAt: null });
  });
});
