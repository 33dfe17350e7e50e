import type { IdleTickHarness } from './testing/idle-tick-harness';
import { idleTickHarnesses } from './testing/idle-tick-harness';

const harness = idleTickHarnesses();

function metricsDown(h: IdleTickHarness): void {
  h.fake.setPod('p1', { metrics: null, observation: 'Running' });
}

async function triggers(h: IdleTickHarness): Promise<string[]> {
  return (await h.actionsOf()).map((a) => `${a.action} ${a.podId} ${a.trigger} ok=${a.ok}`);
}

describe('IdleTickService: boot grace and the runtime cap', () => {
  it.each([
    // RUNPOD_BOOT_GRACE_MINUTES, ticks at CHECK_SECONDS 1: ceil(grace × 60 / 1)
    ['0.02', 2],
    ['0.05', 3],
    ['0.1', 6],
  ])(
    'a vLLM that never answers is stopped as a dead model on the boot-grace tick (grace %s min → tick %i), whatever mix of startup phases it shows',
    async (grace, required) => {
      const h = harness({ env: { RUNPOD_BOOT_GRACE_MINUTES: grace } });
      const phases = ['Provisioning', 'Starting', 'Running'] as const;
      const lines: string[] = [];
      for (let i = 0; i < required; i += 1) {
        h.fake.setPod('p1', { metrics: null, observation: phases[Math.min(i, phases.length - 1)] });
        lines.push((await h.next()).line);
      }

      expect(lines).toEqual([
        ...Array.from(
          { length: required - 1 },
          (_, i) => `Booting idle=0 boot=${i + 1} ready=- up=1s | list, metrics p1, observe p1`,
        ),
        'Down idle=0 boot=0 ready=- up=- | list, metrics p1, observe p1, stop p1 => boot-grace',
      ]);
      expect(await triggers(h)).toEqual(['Stop p1 boot-grace ok=true']);
    },
  );

  it("a boot-grace stop on the tick the pod's own never-ran clock runs out too is one stop, not a second by that guard", async () => {
    const h = harness({ env: { RUNPOD_BOOT_GRACE_MINUTES: '0.05' } });
    h.fake.setPod('p1', { metrics: null, observation: 'Starting' });
    await h.lines(2);
    // Three ticks of boot grace, and (clock moved on) over 3 s since the never-ran clock started.
    const due = await h.next(5000);

    expect(due.line).toBe(
      'Down idle=0 boot=0 ready=- up=- | list, metrics p1, observe p1, stop p1 => boot-grace',
    );
    expect(await triggers(h)).toEqual(['Stop p1 boot-grace ok=true']);
    expect(h.logs.find('never ran')).toEqual([]);
  });

  it('with RUNPOD_BOOT_GRACE_MINUTES=0 a never-ready pod is not stopped by boot grace, only by the cap once it has been up MAX_RUNTIME_MINUTES', async () => {
    const h = harness({ env: { RUNPOD_BOOT_GRACE_MINUTES: '0', MAX_RUNTIME_MINUTES: '1' } });
    metricsDown(h);
    const booting = await h.lines(10);
    // Up since T0+1s: at T0+60s it has been up 59 s, at T0+61s the full minute.
    const justBefore = await h.next(50_000);
    const due = await h.next(1_000);

    expect(booting).toEqual(
      Array.from(
        { length: 10 },
        (_, i) => `Booting idle=0 boot=${i + 1} ready=- up=1s | list, metrics p1, observe p1`,
      ),
    );
    expect(justBefore.line).toBe('Booting idle=0 boot=11 ready=- up=1s | list, metrics p1, observe p1');
    expect(due.line).toBe(
      'Down idle=0 boot=0 ready=- up=- | list, metrics p1, observe p1, stop p1 => runtime-cap',
    );
    expect(await triggers(h)).toEqual(['Stop p1 runtime-cap ok=true']);
  });

  it('the cap stops a phantom-busy pod (a request stuck in flight) that the idle streak can never see', async () => {
    const h = harness({ env: { MAX_RUNTIME_MINUTES: '1' } });
    h.fake.setPod('p1', { metrics: { active: 1, completed: 42 } });
    const busy = await h.lines(5);
    const justBefore = await h.next(55_000);
    const due = await h.next(1_000);

    expect(busy).toEqual(Array<string>(5).fill('Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1'));
    expect(justBefore.line).toBe('Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1');
    expect(due.line).toBe('Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => runtime-cap');
    expect(await triggers(h)).toEqual(['Stop p1 runtime-cap ok=true']);
  });

  it('in dry run a due cap logs "would stop" once per cap window, not on every tick, and stops nothing', async () => {
    const h = harness({ env: { MAX_RUNTIME_MINUTES: '1', IDLE_DRY_RUN: 'true' } });
    h.fake.setPod('p1', { metrics: { active: 1, completed: 42 } });
    await h.lines(5);
    await h.next(55_000);
    await h.next(1_000);
    await h.lines(5);
    await h.next(55_000);

    expect(h.logs.messages('warn').filter((m) => m.startsWith('would stop'))).toEqual([
      'would stop p1 (runtime-cap)',
      'would stop p1 (runtime-cap)',
    ]);
    expect(await triggers(h)).toEqual([]);
  });

  it('the cap clock runs from the first startup observation, not from ready', async () => {
    const h = harness({ env: { MAX_RUNTIME_MINUTES: '1' } });
    h.fake.setPod('p1', { metrics: null, observation: 'Starting' });
    await h.next();
    h.fake.setPod('p1', { metrics: { active: 0, completed: 0 } });
    const ready = await h.next(30_000);
    h.fake.setPod('p1', { metrics: { active: 0, completed: 1 } });
    const due = await h.next(30_000);

    expect(ready.line).toBe('Ready idle=0 boot=0 ready=31s up=1s | list, metrics p1');
    expect(due.line).toBe('Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => runtime-cap');
  });
  it('the cap fires through blind ticks: every scrape and per-pod read failing, it stops the pods the list shows billing', async () => {
    const h = harness({ env: { MAX_RUNTIME_MINUTES: '1' } });
    h.fake.setPod('p1', { metrics: { active: 1, completed: 42 } });
    h.fake.setPod('p2', { metrics: { active: 0, completed: 1 } });
    h.fake.setPod('p3', { metrics: null, observation: 'Exited', listedStatus: 'EXITED' });
    await h.lines(2);
    // From here every scrape and every observe fails: the volume reads Unknown.
    for (const id of ['p1', 'p2', 'p3']) h.fake.setPod(id, { metrics: null, observation: 'unreadable' });
    const blind = await h.next(50_000);
    const due = await h.next(10_000);

    expect(blind.line).toBe(
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1, observe p1, metrics p2, observe p2, metrics p3, observe p3',
    );
    expect(due.line).toBe(
      'Down idle=0 boot=0 ready=- up=- | list, metrics p1, observe p1, metrics p2, observe p2, metrics p3, observe p3, stop p1, stop p2 => runtime-cap',
    );
    expect(await triggers(h)).toEqual(['Stop p1 runtime-cap ok=true', 'Stop p2 runtime-cap ok=true']);
  });

  it('the cap fires through blind ticks whose list fails too: it stops every pod it last saw up', async () => {
    const h = harness({ env: { MAX_RUNTIME_MINUTES: '1' } });
    h.fake.setPod('p1', { metrics: { active: 1, completed: 42 } });
    h.fake.setPod('p2', { metrics: null, observation: 'Starting' });
    await h.lines(2);
    h.fake.listFails();
    const blind = await h.next(50_000);
    const due = await h.next(10_000);

    expect(blind.line).toBe('Ready idle=0 boot=0 ready=1s up=1s | list');
    expect(due.line).toBe('Down idle=0 boot=0 ready=- up=- | list, stop p1, stop p2 => runtime-cap');
    expect(await triggers(h)).toEqual(['Stop p1 runtime-cap ok=true', 'Stop p2 runtime-cap ok=true']);
  });

  it('a failed list is still never "nothing to stop" for the idle window: the streak holds, no stop', async () => {
    const h = harness({ env: { IDLE_MINUTES: '0.05', MAX_RUNTIME_MINUTES: '0' } });
    h.fake.setPod('p1', { metrics: { active: 0, completed: 1 } });
    await h.lines(2);
    h.fake.listFails();
    const blind = await h.lines(5);
    expect(blind).toEqual(Array<string>(5).fill('Ready idle=1 boot=0 ready=1s up=1s | list'));
    expect(await triggers(h)).toEqual([]);
  });
});
