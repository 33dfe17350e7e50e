import type { IdleTickHarness } from './testing/idle-tick-harness';
import { idleTickHarnesses, stateLine } from './testing/idle-tick-harness';
import type { PodTickOutcome } from './idle-tick.service';

const harness = idleTickHarnesses();

function scrape(h: IdleTickHarness, completed: number): void {
  h.fake.setPod('p1', { metrics: { active: 0, completed } });
}

function isAdvanced(
  outcome: PodTickOutcome | undefined,
): outcome is Extract<PodTickOutcome, { kind: 'advanced' }> {
  return outcome?.kind === 'advanced';
}

function count(calls: readonly string[], call: string): number {
  return calls.filter((c) => c === call).length;
}

describe('IdleTickService: re-runs and replicas', () => {
  it('a tick re-run with the same tick id (a stalled job delivered again) changes nothing and stops nothing', async () => {
    const h = harness();
    scrape(h, 0);
    const ticks = await h.lines(6);
    const rerun = await h.run('tick-6');
    const next = await h.next();

    expect(ticks.at(-1)).toBe('Ready idle=5 boot=0 ready=1s up=1s | list, metrics p1');
    expect(rerun.outcome).toEqual({ kind: 'skipped', why: 'already-ticked' });
    expect(rerun.line).toBe('skipped:already-ticked Ready idle=5 boot=0 ready=1s up=1s | list');
    expect(rerun.record.lastTickId).toBe('tick-6');
    expect(next.line).toBe('Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => idle');
    expect((await h.actionsOf()).map((a) => a.trigger)).toEqual(['idle']);
  });

  it('an older tick delivered late (after newer ticks ran) is skipped by its scheduled time', async () => {
    const h = harness();
    scrape(h, 0);
    await h.tick.run('tick-a', 1_000);
    await h.tick.run('tick-b', 2_000);
    const before = await h.store.load('qwen');
    const late = await h.tick.run('tick-a-redelivered', 1_000);

    expect(late.get('qwen')).toEqual({ kind: 'skipped', why: 'already-ticked' });
    expect(await h.store.load('qwen')).toEqual(before);
    expect(before.lastTickScheduledAt).toBe(2_000);
  });

  it('another job scheduled at the same time as the last tick counted is skipped too: one observation per scheduled time', async () => {
    const h = harness();
    scrape(h, 0);
    await h.tick.run('tick-a', 1_000);
    const before = await h.store.load('qwen');
    const twin = await h.tick.run('tick-a-twin', 1_000);

    expect(twin.get('qwen')).toEqual({ kind: 'skipped', why: 'already-ticked' });
    expect(await h.store.load('qwen')).toEqual(before);
  });

  it('two replicas running the same tick at once evaluate the pod once: one scrape, one stop at most', async () => {
    const h = harness();
    const other = h.replica();
    scrape(h, 0);
    await h.lines(6);
    const outcomes = await Promise.all([h.tick.run('tick-7'), other.run('tick-7')]);
    const calls = h.fake.takeCalls();

    const perReplica = outcomes.map((o) => o.get('qwen'));
    expect(perReplica.filter((o) => o?.kind === 'advanced')).toEqual([
      expect.objectContaining({ stop: 'idle', stopAccepted: true }),
    ]);
    expect(perReplica.filter((o) => o?.kind === 'skipped')).toEqual([
      { kind: 'skipped', why: expect.stringMatching(/^(busy|already-ticked)$/) },
    ]);
    expect(count(calls, 'list')).toBe(2);
    expect(count(calls, 'metrics p1')).toBe(1);
    expect(count(calls, 'stop p1')).toBe(1);
    expect((await h.actionsOf()).map((a) => a.trigger)).toEqual(['idle']);
  });

  it('two replicas racing on every tick count each tick once: the streak and the stops match a single monitor', async () => {
    const h = harness();
    const other = h.replica();
    scrape(h, 0);
    const states: string[] = [];
    for (let n = 1; n <= 14; n += 1) {
      h.now += 1000;
      const outcomes = await Promise.all([h.tick.run(`tick-${n}`), other.run(`tick-${n}`)]);
      const advanced = outcomes.map((o) => o.get('qwen')).filter(isAdvanced);
      const calls = h.fake.takeCalls();
      expect(advanced).toHaveLength(1);
      expect(count(calls, 'metrics p1')).toBe(1);
      const stop = advanced[0]?.stop ?? null;
      states.push(`${stateLine((await h.store.load('qwen')).state)}${stop === null ? '' : ` => ${stop}`}`);
    }

    expect(states).toEqual([
      'Ready idle=0 boot=0 ready=1s up=1s',
      'Ready idle=1 boot=0 ready=1s up=1s',
      'Ready idle=2 boot=0 ready=1s up=1s',
      'Ready idle=3 boot=0 ready=1s up=1s',
      'Ready idle=4 boot=0 ready=1s up=1s',
      'Ready idle=5 boot=0 ready=1s up=1s',
      'Down idle=0 boot=0 ready=- up=- => idle',
      'Ready idle=0 boot=0 ready=8s up=8s',
      'Ready idle=1 boot=0 ready=8s up=8s',
      'Ready idle=2 boot=0 ready=8s up=8s',
      'Ready idle=3 boot=0 ready=8s up=8s',
      'Ready idle=4 boot=0 ready=8s up=8s',
      'Ready idle=5 boot=0 ready=8s up=8s',
      'Down idle=0 boot=0 ready=- up=- => idle',
    ]);
    expect((await h.actionsOf()).map((a) => a.trigger)).toEqual(['idle', 'idle']);
  });
});
