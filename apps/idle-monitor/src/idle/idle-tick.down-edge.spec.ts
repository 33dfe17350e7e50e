import { INITIAL_IDLE_STATE } from '@podwarden/policies';
import type { IdleTickHarness } from './testing/idle-tick-harness';
import { idleTickHarnesses } from './testing/idle-tick-harness';
import { FAKE_REFUSED_DETAIL, FAKE_REFUSED_STATUS } from '@podwarden/testing';

const harness = idleTickHarnesses();

function scrape(h: IdleTickHarness, completed: number | null, active = 0): void {
  h.fake.setPod('p1', { metrics: { active, completed } });
}

async function triggers(h: IdleTickHarness): Promise<string[]> {
  return (await h.actionsOf()).map((a) => `${a.action} ${a.podId} ${a.trigger} ok=${a.ok}`);
}

function readyLines(h: IdleTickHarness): string[] {
  return h.logs.messages('info').filter((m) => m.includes('ready after'));
}

/** A woken pod nobody talks to: seed on tick 1, idle 1..5 on ticks 2..6; tick 7 is due. */
async function untilIdleStopIsDue(h: IdleTickHarness): Promise<void> {
  scrape(h, 0);
  await h.lines(6);
}

describe('IdleTickService: the Down edge and refused stops', () => {
  it('stop→start with the same id: the accepted stop resets the state and drops baselines, and the new process enters Ready with an empty streak and a fresh readySince', async () => {
    const h = harness();
    await untilIdleStopIsDue(h);
    const stopped = await h.next();
    // RunPod reuses the id; the control plane shows the restart before vLLM answers again.
    h.fake.setPod('p1', { metrics: null, observation: 'Starting' });
    const starting = await h.next();
    // The new process counts from zero, exactly like the old one did: 0 against a kept 0 would read idle.
    scrape(h, 0);
    const again = await h.lines(7);

    expect(stopped.line).toBe('Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => idle');
    expect(stopped.record).toEqual({
      state: INITIAL_IDLE_STATE,
      baselines: {},
      seenUp: [],
      neverRanSince: {},
      errorSince: {},
      updatedAt: stopped.record.updatedAt,
      lastTickId: 'tick-7',
      lastTickScheduledAt: null,
    });
    expect(starting.line).toBe('Booting idle=0 boot=1 ready=- up=8s | list, metrics p1, observe p1');
    expect(again).toEqual([
      'Ready idle=0 boot=0 ready=9s up=8s | list, metrics p1',
      'Ready idle=1 boot=0 ready=9s up=8s | list, metrics p1',
      'Ready idle=2 boot=0 ready=9s up=8s | list, metrics p1',
      'Ready idle=3 boot=0 ready=9s up=8s | list, metrics p1',
      'Ready idle=4 boot=0 ready=9s up=8s | list, metrics p1',
      'Ready idle=5 boot=0 ready=9s up=8s | list, metrics p1',
      'Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => idle',
    ]);
    expect(readyLines(h)).toEqual([
      '[idle-monitor] pod p1 ready after 0s (boot grace 20m00s)',
      '[idle-monitor] pod p1 ready after 1s (boot grace 20m00s)',
    ]);
    expect(await triggers(h)).toEqual(['Stop p1 idle ok=true', 'Stop p1 idle ok=true']);
  });

  it('a restart the monitor did not cause (Ready, then the control plane shows Starting) withdraws readiness, drops the baseline and starts a fresh boot', async () => {
    const h = harness();
    scrape(h, 0);
    const serving = await h.lines(4);
    h.fake.setPod('p1', { metrics: null, observation: 'Starting' });
    const restarting = await h.next();
    scrape(h, 0);
    const back = await h.next();

    expect(serving.at(-1)).toBe('Ready idle=3 boot=0 ready=1s up=1s | list, metrics p1');
    expect(restarting.line).toBe('Booting idle=0 boot=1 ready=- up=1s | list, metrics p1, observe p1');
    expect(restarting.record.baselines).toEqual({});
    expect(back.line).toBe('Ready idle=0 boot=0 ready=6s up=1s | list, metrics p1');
    expect(h.logs.find('starting again')).toEqual([
      expect.objectContaining({
        pod: 'qwen',
        podId: 'p1',
        msg: 'pod p1 is starting again; readiness cleared',
      }),
    ]);
    expect(readyLines(h)).toEqual([
      '[idle-monitor] pod p1 ready after 0s (boot grace 20m00s)',
      '[idle-monitor] pod p1 ready after 1s (boot grace 20m00s)',
    ]);
  });

  it('after an accepted stop, the same id answering metrics at once (no startup seen between) still seeds a fresh baseline', async () => {
    const h = harness();
    await untilIdleStopIsDue(h);
    await h.next();
    const back = await h.next();

    expect(back.line).toBe('Ready idle=0 boot=0 ready=8s up=8s | list, metrics p1');
    expect(back.record.baselines).toEqual({ p1: 0 });
  });

  it('a refused idle stop resets only the idle streak (phase, readySince and baseline kept), is recorded ok:false, and the next attempt waits a full window', async () => {
    const h = harness();
    h.fake.setPod('p1', { stop: 'refused' });
    await untilIdleStopIsDue(h);
    const refused = await h.next();
    const waiting = await h.lines(5);
    h.fake.setPod('p1', { stop: 'ok' });
    const accepted = await h.next();

    expect(refused.line).toBe('Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1, stop p1 => idle');
    expect(refused.outcome).toEqual(expect.objectContaining({ stop: 'idle', stopAccepted: false }));
    expect(refused.record.baselines).toEqual({ p1: 0 });
    expect(waiting).toEqual([
      'Ready idle=1 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=2 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=3 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=4 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=5 boot=0 ready=1s up=1s | list, metrics p1',
    ]);
    expect(accepted.line).toBe('Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => idle');
    expect(await h.actionsOf()).toEqual([
      expect.objectContaining({
        action: 'Stop',
        podId: 'p1',
        trigger: 'idle',
        ok: false,
        httpStatus: FAKE_REFUSED_STATUS,
        detail: FAKE_REFUSED_DETAIL,
      }),
      expect.objectContaining({ action: 'Stop', podId: 'p1', trigger: 'idle', ok: true, httpStatus: 200 }),
    ]);
    // The refused stop kept the phase: one boot, one "ready" line.
    expect(readyLines(h)).toEqual(['[idle-monitor] pod p1 ready after 0s (boot grace 20m00s)']);
  });

  it('a refused boot-grace stop resets only the boot budget and keeps the phase and the cap clock', async () => {
    const h = harness({ env: { RUNPOD_BOOT_GRACE_MINUTES: '0.05' } });
    h.fake.setPod('p1', { metrics: null, observation: 'Running', stop: 'refused' });
    const lines = await h.lines(6);

    expect(lines).toEqual([
      'Booting idle=0 boot=1 ready=- up=1s | list, metrics p1, observe p1',
      'Booting idle=0 boot=2 ready=- up=1s | list, metrics p1, observe p1',
      'Booting idle=0 boot=0 ready=- up=1s | list, metrics p1, observe p1, stop p1 => boot-grace',
      'Booting idle=0 boot=1 ready=- up=1s | list, metrics p1, observe p1',
      'Booting idle=0 boot=2 ready=- up=1s | list, metrics p1, observe p1',
      'Booting idle=0 boot=0 ready=- up=1s | list, metrics p1, observe p1, stop p1 => boot-grace',
    ]);
    expect(await triggers(h)).toEqual(['Stop p1 boot-grace ok=false', 'Stop p1 boot-grace ok=false']);
  });

  it('a refused cap stop keeps its clock, so the very next tick tries again', async () => {
    const h = harness({ env: { MAX_RUNTIME_MINUTES: '1' } });
    h.fake.setPod('p1', { metrics: { active: 1, completed: 3 }, stop: 'refused' });
    await h.next();
    const refused = await h.next(60_000);
    h.fake.setPod('p1', { stop: 'ok' });
    const accepted = await h.next();

    expect(refused.line).toBe(
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1, stop p1 => runtime-cap',
    );
    expect(accepted.line).toBe('Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => runtime-cap');
    expect(await triggers(h)).toEqual(['Stop p1 runtime-cap ok=false', 'Stop p1 runtime-cap ok=true']);
  });

  it('IDLE_DRY_RUN=true logs "would stop <podId> (idle)" instead of stopping: no stop call, no action entry', async () => {
    const h = harness({ env: { IDLE_DRY_RUN: 'true' } });
    await untilIdleStopIsDue(h);
    const due = await h.next();
    const nextWindow = await h.lines(6);

    expect(due.line).toBe('Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1 => idle');
    expect(nextWindow.at(-1)).toBe('Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1 => idle');
    expect(h.logs.messages('warn').filter((m) => m.startsWith('would stop'))).toEqual([
      'would stop p1 (idle)',
      'would stop p1 (idle)',
    ]);
    expect(h.logs.find('would stop')[0]).toMatchObject({
      pod: 'qwen',
      podId: 'p1',
      reason: 'idle',
      dryRun: true,
    });
    expect(await h.actionsOf()).toEqual([]);
  });

  it('a manual stop (StopService.stopVolume) RunPod accepted is the Down edge: readySince and baselines cleared, so the next ready scrape seeds afresh', async () => {
    const h = harness();
    scrape(h, 0);
    const before = await h.lines(3);
    const result = await h.stops.stopVolume(h.pod(), 'manual');
    const manualCalls = h.fake.takeCalls();
    const afterStop = await h.store.load('qwen');
    const back = await h.next();

    expect(before.at(-1)).toBe('Ready idle=2 boot=0 ready=1s up=1s | list, metrics p1');
    expect(result).toEqual({
      kind: 'stopped',
      ok: true,
      pods: [{ podId: 'p1', ok: true, httpStatus: 200, called: true }],
    });
    expect(manualCalls).toEqual(['list', 'stop p1']);
    expect(afterStop).toEqual({
      state: INITIAL_IDLE_STATE,
      baselines: {},
      seenUp: [],
      neverRanSince: {},
      errorSince: {},
      updatedAt: afterStop.updatedAt,
      lastTickId: 'tick-3',
      lastTickScheduledAt: null,
    });
    expect(back.line).toBe('Ready idle=0 boot=0 ready=4s up=4s | list, metrics p1');
    expect(await triggers(h)).toEqual(['Stop p1 manual ok=true']);
  });

  it('a manual stop RunPod refused leaves the idle state as it was', async () => {
    const h = harness();
    h.fake.setPod('p1', { stop: 'refused' });
    scrape(h, 0);
    const before = (await h.lines(3)).at(-1);
    const result = await h.stops.stopVolume(h.pod(), 'manual');
    const kept = await h.store.load('qwen');

    expect(result).toEqual(expect.objectContaining({ kind: 'stopped', ok: false }));
    expect(before).toBe('Ready idle=2 boot=0 ready=1s up=1s | list, metrics p1');
    expect(kept.state).toEqual(
      expect.objectContaining({ phase: 'Ready', idleStreak: 2, readySince: h.now - 2000 }),
    );
    expect(kept.baselines).toEqual({ p1: 0 });
  });
});
