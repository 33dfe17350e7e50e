import type { IdleTickHarness } from './testing/idle-tick-harness';
import { T0, idleTickHarnesses } from './testing/idle-tick-harness';

// Boot grace 0.05 min (3 s, 3 ticks of CHECK_SECONDS 1): a pod first seen in ERROR on the tick at
// 1 s is due a stop on the tick at 4 s, and a terminate on the tick at 7 s if it is still in ERROR.
const harness = idleTickHarnesses();
const GRACE_ENV = { RUNPOD_BOOT_GRACE_MINUTES: '0.05' };

function inError(h: IdleTickHarness, podId = 'p1'): void {
  h.fake.setPod(podId, { listedStatus: 'ERROR', observation: 'Error', metrics: null });
}

async function recorded(h: IdleTickHarness): Promise<string[]> {
  return (await h.actionsOf()).map((a) => `${a.action} ${a.podId} ${a.trigger} ${a.httpStatus} ok=${a.ok}`);
}

/** Each tick's billable calls (stop, terminate), '-' for a tick without one. */
async function writesPerTick(h: IdleTickHarness, ticks: number): Promise<string[]> {
  const writes: string[] = [];
  for (let i = 0; i < ticks; i += 1) {
    const { calls } = await h.next();
    const billable = calls.filter((c) => /^(stop|terminate|start|create) /.test(c));
    writes.push(billable.length === 0 ? '-' : billable.join(', '));
  }
  return writes;
}

describe('IdleTickService: pods in ERROR', () => {
  it('a pod seen in ERROR for the boot grace is stopped (trigger error), once, and the clock keeps the stop', async () => {
    const h = harness({ env: GRACE_ENV });
    inError(h);

    expect(await writesPerTick(h, 5)).toEqual(['-', '-', '-', 'stop p1', '-']);
    expect(await recorded(h)).toEqual(['Stop p1 error 200 ok=true']);
    expect(h.logs.messages('warn')).toContain('stopping p1: in ERROR longer than the grace (error)');
    const { record } = await h.next();
    expect(record.errorSince).toEqual({ p1: { since: T0 + 1000, stoppedAt: T0 + 4000 } });
    expect(h.events.of('stop')).toEqual([
      expect.objectContaining({ podId: 'p1', trigger: 'error', ok: true }),
    ]);
  });

  it('ERROR does not reset the idle state: the ready pod keeps readySince and the cap clock while it is in ERROR', async () => {
    const h = harness({ env: GRACE_ENV });
    h.fake.setPod('p1', { metrics: { active: 0, completed: 0 } });
    const ready = await h.next();
    expect(ready.line).toBe('Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1');
    inError(h);

    const lines = await h.lines(3);

    expect(lines).toEqual([
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1, observe p1',
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1, observe p1',
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1, observe p1',
    ]);
    // Seen in ERROR from 2 s: its stop is due at 5 s.
    expect((await h.next()).calls).toEqual(['list', 'metrics p1', 'observe p1', 'stop p1']);
  });

  it('a stop RunPod refuses outright (409) becomes a terminate in the same tick, recorded with trigger error', async () => {
    const h = harness({ env: GRACE_ENV });
    inError(h);
    h.fake.onStop({ ok: false, httpStatus: 409, detail: 'pod is in ERROR' });

    expect(await writesPerTick(h, 5)).toEqual(['-', '-', '-', 'stop p1, terminate p1', '-']);
    expect(await recorded(h)).toEqual(['Stop p1 error 409 ok=false', 'Terminate p1 error 204 ok=true']);
    expect(h.logs.messages('warn')).toContain('stop of p1 refused (HTTP 409); terminating it (error)');
    expect(h.events.of('stop')).toEqual([
      expect.objectContaining({ podId: 'p1', trigger: 'error', ok: false, httpStatus: 409 }),
      expect.objectContaining({ podId: 'p1', trigger: 'error', action: 'terminate', ok: true }),
    ]);
    // The terminate was accepted: that clock is gone; a pod still listed in ERROR starts a new one (5 s).
    expect((await h.next()).record.errorSince).toEqual({ p1: { since: T0 + 5000, stoppedAt: null } });
  });

  it('a stop that fails without a refusal (5xx) is retried each tick, and a terminate follows a second grace on', async () => {
    const h = harness({ env: GRACE_ENV });
    inError(h);
    h.fake.onStop(
      ...Array.from({ length: 3 }, () => ({ ok: false, httpStatus: 502, detail: 'bad gateway' })),
    );

    expect(await writesPerTick(h, 8)).toEqual([
      '-',
      '-',
      '-',
      'stop p1',
      'stop p1',
      'stop p1',
      'terminate p1',
      '-',
    ]);
    expect(await recorded(h)).toEqual([
      'Stop p1 error 502 ok=false',
      'Stop p1 error 502 ok=false',
      'Stop p1 error 502 ok=false',
      'Terminate p1 error 204 ok=true',
    ]);
  });

  it('a stop RunPod accepts but does not carry out (the pod stays in ERROR) is followed by a terminate a grace later', async () => {
    const h = harness({ env: GRACE_ENV });
    inError(h);

    expect(await writesPerTick(h, 7)).toEqual(['-', '-', '-', 'stop p1', '-', '-', 'terminate p1']);
    expect(await recorded(h)).toEqual(['Stop p1 error 200 ok=true', 'Terminate p1 error 204 ok=true']);
    expect(h.logs.messages('error')).toContain(
      'terminating p1: still in ERROR a grace after it was due a stop (error)',
    );
  });

  it('a refused terminate is tried again on the next tick', async () => {
    const h = harness({ env: GRACE_ENV });
    inError(h);
    h.fake.onStop({ ok: false, httpStatus: 400, detail: 'no' });
    h.fake.onTerminate({ ok: false, httpStatus: 409, detail: 'no' });

    expect(await writesPerTick(h, 5)).toEqual(['-', '-', '-', 'stop p1, terminate p1', 'stop p1']);
    expect(await recorded(h)).toEqual([
      'Stop p1 error 400 ok=false',
      'Terminate p1 error 409 ok=false',
      'Stop p1 error 200 ok=true',
    ]);
  });

  it('a pod seen out of ERROR (running again) loses its clock: a new one starts if it goes back', async () => {
    const h = harness({ env: GRACE_ENV });
    inError(h);
    await h.lines(2);
    h.fake.setPod('p1', { listedStatus: 'RUNNING', observation: 'Running' });
    const running = await h.next();
    expect(running.record.errorSince).toEqual({});
    inError(h);

    // Back in ERROR at 4 s: a new clock, due at 7 s.
    expect(await writesPerTick(h, 4)).toEqual(['-', '-', '-', 'stop p1']);
    expect(await recorded(h)).toEqual(['Stop p1 error 200 ok=true']);
  });

  it('when its own read fails, the list saying ERROR is the evidence', async () => {
    const h = harness({ env: GRACE_ENV });
    h.fake.setPod('p1', { listedStatus: 'ERROR', observation: 'unreadable', metrics: null });

    expect(await writesPerTick(h, 4)).toEqual(['-', '-', '-', 'stop p1']);
  });

  it('stopped whatever protects the volume: a busy sibling and a day-long keep-alive', async () => {
    const h = harness({ env: GRACE_ENV });
    h.fake.setPod('busy', { metrics: { active: 1, completed: 0 } });
    inError(h, 'broken');
    await h.keepAliveFor(86_400_000);

    const writes = await writesPerTick(h, 4);

    expect(writes).toEqual(['-', '-', '-', 'stop broken']);
    expect(await recorded(h)).toEqual(['Stop broken error 200 ok=true']);
  });

  it('with boot grace 0 (never-ready guard off) an ERROR pod is still stopped, after the default 20 minutes', async () => {
    const h = harness({ env: { RUNPOD_BOOT_GRACE_MINUTES: '0' } });
    inError(h);
    await h.next();

    expect((await h.next(20 * 60_000 - 1)).calls).not.toContain('stop p1');
    expect((await h.next(1)).calls).toContain('stop p1');
    expect(await recorded(h)).toEqual(['Stop p1 error 200 ok=true']);
  });

  it('a tick re-run after a stall does not stop twice', async () => {
    const h = harness({ env: GRACE_ENV });
    inError(h);
    await h.lines(4);
    const rerun = await h.run('tick-4');

    expect(rerun.outcome).toEqual({ kind: 'skipped', why: 'already-ticked' });
    expect(await recorded(h)).toEqual(['Stop p1 error 200 ok=true']);
  });

  it('dry run: "would stop" once per grace, no call and no record', async () => {
    const h = harness({ env: { ...GRACE_ENV, IDLE_DRY_RUN: 'true' } });
    inError(h);

    expect(await writesPerTick(h, 8)).toEqual(Array.from({ length: 8 }, () => '-'));
    expect(h.logs.messages('warn').filter((m) => m.startsWith('would'))).toEqual([
      'would stop p1 (error)',
      'would stop p1 (error)',
    ]);
    expect(await recorded(h)).toEqual([]);
  });
});

describe('IdleTickService: ERROR beside the never-ran guard', () => {
  it('a pod flipping between starting without a runtime and ERROR keeps its never-ran clock: stopped at the grace (boot-grace)', async () => {
    const h = harness({ env: GRACE_ENV });
    const starting = (): void => {
      h.fake.setPod('p1', { listedStatus: 'RUNNING', observation: 'Starting', metrics: null });
    };
    const flips = [starting, () => inError(h), starting, () => inError(h)];
    const writes: string[] = [];
    for (const flip of flips) {
      flip();
      const { calls } = await h.next();
      writes.push(calls.filter((c) => c.startsWith('stop ')).join(', ') || '-');
    }

    // Never ran since 1 s: due at 4 s, though the ERROR clock restarted at 2 s and 4 s.
    expect(writes).toEqual(['-', '-', '-', 'stop p1']);
    expect(await recorded(h)).toEqual(['Stop p1 boot-grace 200 ok=true']);
  });
});
