import { eventually } from '../support/app-process';
import { Stack, VOLUME_ID } from '../support/stack';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  actions,
  emptyVolume,
  formatTicks,
  messagesWith,
  podIdOfCall,
  podStatus,
  seedPod,
  setVllm,
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
 * once so the cap (45 s) is waited out only once; the monitor is killed
 * (SIGKILL) and restarted with half a minute of the cap left (time to start a
 * monitor on a loaded machine), so the cap must also survive a restart.
 *
 * Environment: MAX_RUNTIME_MINUTES=0.75 and RUNPOD_BOOT_GRACE_MINUTES=0 for
 * every pod unless its PODS_CONFIG entry says otherwise.
 */
const CAP_MS = 45_000;
/** How much of the cap is left when the monitor is killed: the new one must start and tick before it falls due. */
const LEFT_AT_KILL_MS = 30_000;
const VOLUMES = {
  qwen: VOLUME_ID,
  neverready: 'vol-never-ready',
  nograce: 'vol-no-grace',
  phantom: 'vol-phantom',
};

jest.setTimeout(300_000);

describe('dead models and the runtime cap', () => {
  let stack: Stack;
  let seededAt = 0;
  /** When the phantom pod's cap falls due, read while it is up (the other tests outlast it). */
  let phantomCapAt = 0;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  beforeAll(async () => {
    const podsConfig = writePodsConfig([
      // A vLLM that dies after serving: caught by the idle window; the cap is off so only the window can stop it.
      { name: 'qwen', volumeId: VOLUMES.qwen, idleMinutes: 0.1, bootGraceMinutes: 1, maxRuntimeMinutes: 0 },
      // A vLLM that never answers: caught by a three-tick boot grace (0.05 min at 1 s ticks).
      { name: 'neverready', volumeId: VOLUMES.neverready, bootGraceMinutes: 0.05, maxRuntimeMinutes: 0 },
      // The same with boot grace off (the environment's 0): only the cap (the environment's 0.75 min) stops it.
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
        MAX_RUNTIME_MINUTES: String(CAP_MS / 60_000),
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

  beforeAll(async () => {
    phantomCapAt = Date.parse(
      await eventually(
        async () => (await podStatus(stack, 'phantom')).runtimeCapAt ?? undefined,
        EVENT_DEADLINE_MS,
        'phantom runtimeCapAt',
      ),
    );
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
  async function stopsOf(pod: string, podId: string, timeoutMs = EVENT_DEADLINE_MS): Promise<ActionItem[]> {
    await waitForStopAndTick(stack, podId, timeoutMs, pod);
    return (await actions(stack, pod)).filter((a) => a.action === 'Stop');
  }

  it('a vLLM that died after serving is stopped: UnreachableButRunning accrues in Ready like idle', async () => {
    const ready = await waitForTick(
      monitors,
      (t) => t.phase === 'Ready',
      EVENT_DEADLINE_MS,
      'qwen ready',
      'qwen',
    );
    await setVllm(stack, 'dies-after-serving', 'dead');
    const killedAt = Date.now();
    const stops = await stopsOf('qwen', 'dies-after-serving');
    expect(stops.map((a) => [a.podId, a.trigger, a.ok])).toEqual([['dies-after-serving', 'idle', true]]);

    const ticks = ticksOf('qwen');
    const readyIndex = ticks.findIndex((t) => t.tickId === ready.tickId);
    const stopIndex = ticks.findIndex((t, i) => i > readyIndex && t.phase === 'Down');
    const accruing = ticks.slice(readyIndex + 1, stopIndex + 1);
    expect(stopIndex - readyIndex).toBe(WINDOW_TICKS);
    expect(accruing.slice(0, -1).map((t) => t.idleStreak)).toEqual([1, 2, 3, 4, 5]);
    // Idle until the kill, RUNNING-without-metrics after it: both accrue, in that order.
    const afterKill = accruing.filter((t) => t.scheduledAt! > killedAt);
    expect(afterKill.length).toBeGreaterThanOrEqual(1);
    expect(afterKill.every((t) => t.signal === 'UnreachableButRunning')).toBe(true);
    const signals = accruing.map((t) => t.signal);
    const firstDark = signals.indexOf('UnreachableButRunning');
    expect(signals.slice(0, firstDark).every((signal) => signal === 'Idle')).toBe(true);
    expect(signals.slice(firstDark).every((signal) => signal === 'UnreachableButRunning')).toBe(true);
  });

  it('a vLLM that never answers is stopped by boot grace after ceil(0.05 × 60 / 1) = 3 booting ticks, and never logged ready', async () => {
    const stops = await stopsOf('neverready', 'never-ready-pod');
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

  it('with boot grace 0, a never-ready pod is left to the cap: one runtime-cap stop at upSince + 0.75 min, also across a monitor killed with SIGKILL and restarted', async () => {
    const capBefore = await eventually(
      async () => (await podStatus(stack, 'nograce')).runtimeCapAt ?? undefined,
      EVENT_DEADLINE_MS,
      'nograce runtimeCapAt',
    );
    const capAt = Date.parse(capBefore);
    const firstUp = ticksOf('nograce').find((t) => t.phase === 'Booting')!;
    // Kill with half a minute of the cap left, just after a tick has finished, and start a new monitor.
    await waitForTick(
      monitors,
      (t) => t.at > capAt - LEFT_AT_KILL_MS,
      CAP_MS,
      'half a minute before the cap',
      'nograce',
    );
    await stack.idleMonitors[0].kill9();
    const killedAt = Date.now();
    await stack.startIdleMonitor();
    expect((await podStatus(stack, 'nograce')).runtimeCapAt).toBe(capBefore);

    const stops = await stopsOf('nograce', 'no-grace-pod', CAP_MS + EVENT_DEADLINE_MS);
    expect(stops.map((a) => [a.podId, a.trigger, a.ok])).toEqual([['no-grace-pod', 'runtime-cap', true]]);
    const ticks = ticksOf('nograce');
    const stopIndex = ticks.findIndex((t) => t.phase === 'Down' && t.at > firstUp.at);
    const booting = ticks.slice(0, stopIndex);
    // Booting the whole time, far past the three-tick budget the neverready pod had, and no boot-grace stop.
    expect(booting.every((t) => t.phase === 'Booting' && t.signal === 'UnreachableButRunning')).toBe(true);
    expect(Math.max(...booting.map((t) => t.bootingTicks))).toBeGreaterThanOrEqual(10);
    expect(booting.some((t) => t.monitor !== firstUp.monitor && t.at > killedAt)).toBe(true);
    // On the restored clock, not a whole cap after the restart: the cap was armed at the first up tick,
    // it fired on the first tick evaluated after it fell due, and no earlier tick was scheduled past it.
    const stopCall = (await stopCalls(stack)).find((c) => podIdOfCall(c) === 'no-grace-pod')!;
    expect(capAt - (firstUp.scheduledAt ?? firstUp.at)).toBeGreaterThanOrEqual(CAP_MS);
    expect(capAt - firstUp.at).toBeLessThanOrEqual(CAP_MS);
    expect(Date.parse(stopCall.at)).toBeGreaterThanOrEqual(capAt);
    expect(booting.filter((t) => t.scheduledAt! >= capAt)).toEqual([]);
    if (process.env.IDLE_E2E_TABLE) process.stdout.write(`\n${formatTicks(ticks.slice(-8))}\n`);
  });

  it('the cap stops a phantom-busy pod that never reads idle', async () => {
    const capAt = phantomCapAt;
    const stops = await stopsOf('phantom', 'phantom-pod', CAP_MS + EVENT_DEADLINE_MS);
    expect(stops.map((a) => [a.podId, a.trigger, a.ok])).toEqual([['phantom-pod', 'runtime-cap', true]]);
    const ticks = ticksOf('phantom');
    const stopIndex = ticks.findIndex((t) => t.phase === 'Down');
    const before = ticks.slice(0, stopIndex);
    expect(before.length).toBeGreaterThan(WINDOW_TICKS);
    expect(before.every((t) => t.signal === 'Busy' && t.idleStreak === 0 && t.phase === 'Ready')).toBe(true);
    // The stop came on the first tick evaluated once the cap fell due: none before it was scheduled past it.
    expect(ticks[stopIndex].at).toBeGreaterThanOrEqual(capAt);
    expect(before.filter((t) => t.scheduledAt! >= capAt)).toEqual([]);
    const after = await podStatus(stack, 'phantom');
    expect(after).toMatchObject({ readySince: null, idleStopAt: null, runtimeCapAt: null });
  });
});
