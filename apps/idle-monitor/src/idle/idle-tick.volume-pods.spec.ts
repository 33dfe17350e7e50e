import type { IdleTickHarness } from './testing/idle-tick-harness';
import { idleTickHarnesses, stateLine } from './testing/idle-tick-harness';

const harness = idleTickHarnesses();

function scrape(h: IdleTickHarness, completed: number | null, active = 0): void {
  h.fake.setPod('p1', { metrics: { active, completed } });
}

async function triggers(h: IdleTickHarness, podName?: string): Promise<string[]> {
  return (await h.actionsOf(podName)).map((a) => `${a.action} ${a.podId} ${a.trigger} ok=${a.ok}`);
}

const TWO_PODS_WARNING = '2 pods on volume vol-1; a stale pod and its replacement may both be billing';

describe('IdleTickService: every pod on the volume, and ticks that see nothing', () => {
  it('a stale Exited pod listed before its running replacement does not hide the billing pod: the replacement is stopped, the Exited one is not a target, and each tick warns', async () => {
    const h = harness();
    h.fake.setPod('old', { listedStatus: 'EXITED', metrics: null, observation: 'Exited' });
    h.fake.setPod('new', { metrics: { active: 0, completed: 0 } });
    const lines = await h.lines(7);

    const scrapes = 'list, metrics old, observe old, metrics new';
    expect(lines).toEqual([
      `Ready idle=0 boot=0 ready=1s up=1s | ${scrapes}`,
      `Ready idle=1 boot=0 ready=1s up=1s | ${scrapes}`,
      `Ready idle=2 boot=0 ready=1s up=1s | ${scrapes}`,
      `Ready idle=3 boot=0 ready=1s up=1s | ${scrapes}`,
      `Ready idle=4 boot=0 ready=1s up=1s | ${scrapes}`,
      `Ready idle=5 boot=0 ready=1s up=1s | ${scrapes}`,
      `Down idle=0 boot=0 ready=- up=- | ${scrapes}, stop new => idle`,
    ]);
    expect(await triggers(h)).toEqual(['Stop new idle ok=true']);
    expect(h.logs.messages('warn').filter((m) => m === TWO_PODS_WARNING)).toHaveLength(7);
    expect(h.logs.lines.find((line) => line.msg === TWO_PODS_WARNING)).toEqual(
      expect.objectContaining({ pod: 'qwen', podIds: ['old', 'new'], signals: ['NotRunning', 'Busy'] }),
    );
  });

  it('two idle pods on the volume are stopped in one tick; one refusal makes the stop refused, and only the stopped pod loses its baseline', async () => {
    const h = harness();
    h.fake.setPod('old', { metrics: { active: 0, completed: 4 } });
    h.fake.setPod('new', { metrics: { active: 0, completed: 0 }, stop: 'refused' });
    await h.lines(6);
    const due = await h.next();

    expect(due.line).toBe(
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics old, metrics new, stop old, stop new => idle',
    );
    expect(due.outcome).toMatchObject({ kind: 'advanced', stop: 'idle', stopAccepted: false });
    expect(due.record.baselines).toEqual({ new: 0 });
    expect(h.logs.find('stopping')).toEqual([
      expect.objectContaining({
        msg: 'stopping old, new (idle)',
        pod: 'qwen',
        targets: ['old', 'new'],
        reason: 'idle',
        signal: 'Idle',
      }),
    ]);
    expect(await triggers(h)).toEqual(['Stop old idle ok=true', 'Stop new idle ok=false']);
  });

  it('a busy replacement is never stopped because a stale sibling still running reads idle', async () => {
    const h = harness();
    h.fake.setPod('old', { metrics: { active: 0, completed: 5 } });
    h.fake.setPod('new', { metrics: { active: 1, completed: 0 } });
    const lines = await h.lines(10);

    expect(lines).toEqual(
      Array<string>(10).fill('Ready idle=0 boot=0 ready=1s up=1s | list, metrics old, metrics new'),
    );
    expect(await h.actionsOf()).toEqual([]);
  });

  it('baselines of pods that left the volume are pruned, so replacements cannot grow the record', async () => {
    const h = harness();
    h.fake.setPod('old', { metrics: { active: 0, completed: 4 } });
    h.fake.setPod('new', { metrics: { active: 0, completed: 0 } });
    const both = await h.next();
    h.fake.removePod('old');
    const replaced = await h.next();

    expect(both.record.baselines).toEqual({ old: 4, new: 0 });
    expect(replaced.record.baselines).toEqual({ new: 0 });
    expect(replaced.line).toBe('Ready idle=1 boot=0 ready=1s up=1s | list, metrics new');
  });

  it('a single pod on the volume logs no multi-pod warning', async () => {
    const h = harness();
    scrape(h, 0);
    await h.lines(3);

    expect(h.logs.messages('warn')).toEqual([]);
  });

  it.each([
    ['the pod list is unreadable', (h: IdleTickHarness) => void h.fake.listFails(), 'list'],
    [
      'metrics are down and the pod read fails',
      (h: IdleTickHarness) => void h.fake.setPod('p1', { metrics: null, observation: 'unreadable' }),
      'list, metrics p1, observe p1',
    ],
    [
      'metrics are down and the pod reads not-found',
      (h: IdleTickHarness) => void h.fake.setPod('p1', { metrics: null, observation: 'not-found' }),
      'list, metrics p1, observe p1',
    ],
    [
      'metrics are down and the pod status is not one we know',
      (h: IdleTickHarness) => void h.fake.setPod('p1', { metrics: null, observation: 'Unknown' }),
      'list, metrics p1, observe p1',
    ],
  ])(
    'an Unknown tick (%s) neither accrues nor resets the streak, keeps the baseline, and stops nothing',
    async (_why, blind, calls) => {
      const h = harness();
      scrape(h, 9);
      const seen = await h.lines(4);
      blind(h);
      const unknown = await h.lines(5);
      h.fake.listReadable();
      scrape(h, 9);
      const resumed = await h.lines(3);

      expect(seen.at(-1)).toBe('Ready idle=3 boot=0 ready=1s up=1s | list, metrics p1');
      expect(unknown).toEqual(Array<string>(5).fill(`Ready idle=3 boot=0 ready=1s up=1s | ${calls}`));
      expect(resumed).toEqual([
        'Ready idle=4 boot=0 ready=1s up=1s | list, metrics p1',
        'Ready idle=5 boot=0 ready=1s up=1s | list, metrics p1',
        'Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => idle',
      ]);
    },
  );

  it('an unreadable list makes no metrics, observe or stop call, neither boots nor arms the cap from Down, and pauses the boot budget', async () => {
    const h = harness({ env: { RUNPOD_BOOT_GRACE_MINUTES: '0.05' } });
    h.fake.setPod('p1', { metrics: null, observation: 'Running' });
    h.fake.listFails();
    const fromDown = await h.lines(3);
    h.fake.listReadable();
    const booting = await h.lines(2);
    h.fake.listFails();
    const paused = await h.lines(4);
    h.fake.listReadable();
    const due = await h.lines(1);

    expect(fromDown).toEqual(Array<string>(3).fill('Down idle=0 boot=0 ready=- up=- | list'));
    expect(booting).toEqual([
      'Booting idle=0 boot=1 ready=- up=4s | list, metrics p1, observe p1',
      'Booting idle=0 boot=2 ready=- up=4s | list, metrics p1, observe p1',
    ]);
    expect(paused).toEqual(Array<string>(4).fill('Booting idle=0 boot=2 ready=- up=4s | list'));
    expect(due).toEqual([
      'Down idle=0 boot=0 ready=- up=- | list, metrics p1, observe p1, stop p1 => boot-grace',
    ]);
  });

  it('a volume with no pod on it is genuinely down: the state resets and nothing is scraped', async () => {
    const h = harness();
    scrape(h, 0);
    await h.lines(3);
    h.fake.removePod('p1');
    const gone = await h.next();

    expect(gone.line).toBe('Down idle=0 boot=0 ready=- up=- | list');
    expect(gone.record.baselines).toEqual({});
  });

  it('several configured pods share ONE pod list per tick, each evaluated against its own volume, port and window', async () => {
    const podsConfig = JSON.stringify({
      pods: [
        { name: 'alpha', volumeId: 'vol-a' },
        { name: 'beta', volumeId: 'vol-b', podPort: 8001, idleMinutes: 1 },
      ],
    });
    const h = harness({ podsConfig, env: { IDLE_CONCURRENCY: '4' } });
    h.fake.setPod('pa', { volumeId: 'vol-a', metrics: { active: 0, completed: 0 } });
    h.fake.setPod('pb', { volumeId: 'vol-b', metrics: { active: 0, completed: 0 } });
    const ticks = [];
    for (let i = 0; i < 7; i += 1) ticks.push(await h.next());
    const beta = await h.store.load('beta');

    // The two pods are evaluated side by side: their calls interleave in no promised order.
    expect(ticks.map((tick) => [...tick.calls].sort())).toEqual([
      ...Array.from({ length: 6 }, () => ['list', 'metrics pa', 'metrics pb']),
      ['list', 'metrics pa', 'metrics pb', 'stop pa'],
    ]);
    expect(ticks.map((tick) => stateLine(tick.record.state))).toEqual([
      'Ready idle=0 boot=0 ready=1s up=1s',
      'Ready idle=1 boot=0 ready=1s up=1s',
      'Ready idle=2 boot=0 ready=1s up=1s',
      'Ready idle=3 boot=0 ready=1s up=1s',
      'Ready idle=4 boot=0 ready=1s up=1s',
      'Ready idle=5 boot=0 ready=1s up=1s',
      'Down idle=0 boot=0 ready=- up=-',
    ]);
    expect(ticks.map((tick) => tick.outcomes.get('alpha'))).toEqual([
      ...Array.from({ length: 6 }, () => expect.objectContaining({ kind: 'advanced', stop: null })),
      expect.objectContaining({ kind: 'advanced', stop: 'idle', stopAccepted: true }),
    ]);
    for (const tick of ticks) {
      expect(tick.outcomes.get('beta')).toEqual(expect.objectContaining({ kind: 'advanced', stop: null }));
    }
    // beta's window is 1 minute = 60 ticks: six idle scrapes are far from it.
    expect(beta.state).toEqual(expect.objectContaining({ phase: 'Ready', idleStreak: 6 }));
    expect(new Set(h.fake.scrapedPorts)).toEqual(new Set(['pa:8000', 'pb:8001']));
    expect(await triggers(h, 'alpha')).toEqual(['Stop pa idle ok=true']);
    expect(await triggers(h, 'beta')).toEqual([]);
  });

  it('a pod without a volume is skipped as unconfigured and the tick makes no RunPod call at all', async () => {
    const h = harness({ env: { RUNPOD_VOLUME_ID: '' } });
    const outcomes = await h.tick.run('tick-1');

    expect(outcomes).toEqual(new Map([['qwen', { kind: 'skipped', why: 'unconfigured' }]]));
    expect(h.fake.takeCalls()).toEqual([]);
  });
});
