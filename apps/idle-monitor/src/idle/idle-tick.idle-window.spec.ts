import { LEVEL } from '@podwarden/testing';
import type { IdleTickHarness } from './testing/idle-tick-harness';
import { idleTickHarnesses } from './testing/idle-tick-harness';

// IDLE_MINUTES 0.1 and CHECK_SECONDS 1 (the harness defaults): ceil(0.1 × 60 / 1) = 6 idle observations stop the pod.
const harness = idleTickHarnesses();

/** vLLM loading the model (or dead): /metrics answers 502 while the control plane says RUNNING. */
function metricsDown(h: IdleTickHarness): void {
  h.fake.setPod('p1', { metrics: null, observation: 'Running' });
}

function scrape(h: IdleTickHarness, completed: number | null, active = 0): void {
  h.fake.setPod('p1', { metrics: { active, completed } });
}

describe('IdleTickService: the idle window', () => {
  it('with counters, an unused pod stops on the 6th idle scrape after the ready scrape (which seeds the baseline), never during a long model load', async () => {
    const h = harness();
    metricsDown(h);
    const load = await h.lines(8);
    scrape(h, 0);
    const ready = await h.lines(1);
    const idle = await h.lines(6);

    expect([...load, ...ready, ...idle]).toEqual([
      'Booting idle=0 boot=1 ready=- up=1s | list, metrics p1, observe p1',
      'Booting idle=0 boot=2 ready=- up=1s | list, metrics p1, observe p1',
      'Booting idle=0 boot=3 ready=- up=1s | list, metrics p1, observe p1',
      'Booting idle=0 boot=4 ready=- up=1s | list, metrics p1, observe p1',
      'Booting idle=0 boot=5 ready=- up=1s | list, metrics p1, observe p1',
      'Booting idle=0 boot=6 ready=- up=1s | list, metrics p1, observe p1',
      'Booting idle=0 boot=7 ready=- up=1s | list, metrics p1, observe p1',
      'Booting idle=0 boot=8 ready=- up=1s | list, metrics p1, observe p1',
      // The first scrape: no baseline yet, so it is Busy and banks no idle evidence.
      'Ready idle=0 boot=0 ready=9s up=1s | list, metrics p1',
      'Ready idle=1 boot=0 ready=9s up=1s | list, metrics p1',
      'Ready idle=2 boot=0 ready=9s up=1s | list, metrics p1',
      'Ready idle=3 boot=0 ready=9s up=1s | list, metrics p1',
      'Ready idle=4 boot=0 ready=9s up=1s | list, metrics p1',
      'Ready idle=5 boot=0 ready=9s up=1s | list, metrics p1',
      // Tick 15: the 6th idle scrape, the 7th counting the ready scrape. The accepted stop is the Down edge.
      'Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => idle',
    ]);
    expect((await h.store.load('qwen')).baselines).toEqual({});
    // One 'idle tick' debug line per tick (the end-to-end specs read them); the stopping one names
    // the counters that fired, before the stop reset them.
    const tickLines = h.logs.find('idle tick');
    expect(tickLines).toHaveLength(15);
    expect(tickLines[13]).toEqual(
      expect.objectContaining({
        pod: 'qwen',
        tickId: 'tick-14',
        signal: 'Idle',
        phase: 'Ready',
        idleStreak: 5,
      }),
    );
    expect(tickLines[13]).not.toHaveProperty('stop');
    expect(tickLines[14]).toEqual(
      expect.objectContaining({
        level: LEVEL.debug,
        pod: 'qwen',
        tickId: 'tick-15',
        signal: 'Idle',
        phase: 'Down',
        idleStreak: 0,
        bootingTicks: 0,
        stop: 'idle',
        stopAccepted: true,
        streakAtStop: 6,
        bootingTicksAtStop: 0,
      }),
    );
    expect(tickLines[0]).toMatchObject({
      signal: 'UnreachableButRunning',
      phase: 'Booting',
      bootingTicks: 1,
    });
    expect(await h.actionsOf()).toEqual([
      expect.objectContaining({
        podName: 'qwen',
        action: 'Stop',
        podId: 'p1',
        gpuId: 'NVIDIA L40S',
        pricePerHour: 0.86,
        httpStatus: 200,
        ok: true,
        trigger: 'idle',
      }),
    ]);
  });

  it('without counters (an older vLLM), the ready scrape is itself the first idle scrape and the 6th scrape counting it stops the pod', async () => {
    const h = harness();
    metricsDown(h);
    const load = await h.lines(2);
    scrape(h, null);
    const idle = await h.lines(6);

    expect([...load, ...idle]).toEqual([
      'Booting idle=0 boot=1 ready=- up=1s | list, metrics p1, observe p1',
      'Booting idle=0 boot=2 ready=- up=1s | list, metrics p1, observe p1',
      'Ready idle=1 boot=0 ready=3s up=1s | list, metrics p1',
      'Ready idle=2 boot=0 ready=3s up=1s | list, metrics p1',
      'Ready idle=3 boot=0 ready=3s up=1s | list, metrics p1',
      'Ready idle=4 boot=0 ready=3s up=1s | list, metrics p1',
      'Ready idle=5 boot=0 ready=3s up=1s | list, metrics p1',
      'Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => idle',
    ]);
  });

  it('a counter advancing between two ticks resets the streak, and a long generation (a request in flight) never reads idle', async () => {
    const h = harness();
    const lines: string[] = [];
    scrape(h, 10);
    lines.push(...(await h.lines(3)));
    // A chat turn began and ended between two scrapes: only the counter shows it.
    scrape(h, 11);
    lines.push(...(await h.lines(6)));
    // A generation longer than the whole window, counter not moving until it ends.
    scrape(h, 11, 1);
    lines.push(...(await h.lines(8)));
    scrape(h, 11);
    lines.push(...(await h.lines(6)));

    expect(lines).toEqual([
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=1 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=2 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=1 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=2 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=3 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=4 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=5 boot=0 ready=1s up=1s | list, metrics p1',
      ...Array<string>(8).fill('Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1'),
      'Ready idle=1 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=2 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=3 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=4 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=5 boot=0 ready=1s up=1s | list, metrics p1',
      'Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => idle',
    ]);
    expect((await h.actionsOf()).map((a) => `${a.trigger} ${a.podId} ok=${a.ok}`)).toEqual([
      'idle p1 ok=true',
    ]);
  });

  it('a vLLM that died after serving (metrics down, control plane RUNNING) accrues like idle and the pod is stopped', async () => {
    const h = harness();
    scrape(h, 5);
    const serving = await h.lines(3);
    metricsDown(h);
    const dead = await h.lines(4);

    expect([...serving, ...dead]).toEqual([
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=1 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=2 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=3 boot=0 ready=1s up=1s | list, metrics p1, observe p1',
      'Ready idle=4 boot=0 ready=1s up=1s | list, metrics p1, observe p1',
      'Ready idle=5 boot=0 ready=1s up=1s | list, metrics p1, observe p1',
      'Down idle=0 boot=0 ready=- up=- | list, metrics p1, observe p1, stop p1 => idle',
    ]);
    expect((await h.actionsOf()).map((a) => `${a.trigger} ${a.podId} ok=${a.ok}`)).toEqual([
      'idle p1 ok=true',
    ]);
  });

  it('an idle pod whose metrics flap (unreachable every other tick, control plane RUNNING) keeps its baseline across the blips and still stops', async () => {
    const h = harness();
    scrape(h, 7);
    const lines = await h.lines(1);
    for (let i = 0; i < 3; i += 1) {
      metricsDown(h);
      lines.push(...(await h.lines(1)));
      scrape(h, 7);
      lines.push(...(await h.lines(1)));
    }

    expect(lines).toEqual([
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=1 boot=0 ready=1s up=1s | list, metrics p1, observe p1',
      'Ready idle=2 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=3 boot=0 ready=1s up=1s | list, metrics p1, observe p1',
      'Ready idle=4 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=5 boot=0 ready=1s up=1s | list, metrics p1, observe p1',
      'Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => idle',
    ]);
  });

  it('a busy pod whose metrics flap is never stopped early: every answered scrape shows work and resets the streak', async () => {
    const h = harness();
    const lines: string[] = [];
    for (let completed = 1; completed <= 10; completed += 1) {
      scrape(h, completed * 3);
      lines.push((await h.next()).line);
      metricsDown(h);
      lines.push((await h.next()).line);
    }

    expect(lines.filter((line) => line.includes('stop'))).toEqual([]);
    expect(new Set(lines)).toEqual(
      new Set([
        'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1',
        'Ready idle=1 boot=0 ready=1s up=1s | list, metrics p1, observe p1',
      ]),
    );
    expect(await h.actionsOf()).toEqual([]);
  });

  it('logs "ready after" once per boot, naming the pod, the boot time and the boot grace', async () => {
    const h = harness({ env: { RUNPOD_BOOT_GRACE_MINUTES: '2.5' } });
    h.fake.setPod('p1', { metrics: null, observation: 'Starting' });
    await h.next();
    metricsDown(h);
    await h.next(64_000);
    scrape(h, 0);
    await h.lines(3);

    expect(h.logs.messages('info').filter((m) => m.includes('ready after'))).toEqual([
      '[idle-monitor] pod p1 ready after 1m05s (boot grace 2m30s)',
    ]);
    const readyLine = h.logs.lines.find((line) => line.msg.includes('ready after'));
    expect(readyLine).toEqual(
      expect.objectContaining({ pod: 'qwen', podId: 'p1', readyAfterMs: 65_000, bootGraceMinutes: 2.5 }),
    );
  });
});
