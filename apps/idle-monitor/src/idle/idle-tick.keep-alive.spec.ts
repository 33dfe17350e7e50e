import type { IdleTickHarness } from './testing/idle-tick-harness';
import { T0, idleTickHarnesses } from './testing/idle-tick-harness';

// IDLE_MINUTES 0.1 and CHECK_SECONDS 1 (the harness defaults): 6 idle observations stop the pod.
const harness = idleTickHarnesses();

function scrape(h: IdleTickHarness, completed: number, active = 0): void {
  h.fake.setPod('p1', { metrics: { active, completed } });
}

async function triggers(h: IdleTickHarness): Promise<string[]> {
  return (await h.actionsOf()).map((a) => `${a.action} ${a.podId} ${a.trigger} ok=${a.ok}`);
}

function heldOffLines(h: IdleTickHarness): string[] {
  return h.logs.messages('info').filter((m) => m.startsWith('idle stop held off'));
}

describe('IdleTickService: keep-alive', () => {
  it('an unused pod is not idle-stopped while a keep-alive holds, and once it lapses is stopped a full idle window after the last held-off tick', async () => {
    const h = harness();
    scrape(h, 0);
    // Lapses just after the tick at 13 s, the second tick an idle stop falls due on.
    const until = await h.keepAliveFor(13_500);
    const lines = await h.lines(19);

    expect(lines).toEqual([
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=1 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=2 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=3 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=4 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=5 boot=0 ready=1s up=1s | list, metrics p1',
      // 7 s: the 6th idle tick; the stop is held off and the streak restarts, as after a refused stop.
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=1 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=2 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=3 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=4 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=5 boot=0 ready=1s up=1s | list, metrics p1',
      // 13 s: held off again; the keep-alive lapses 0.5 s later.
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=1 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=2 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=3 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=4 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=5 boot=0 ready=1s up=1s | list, metrics p1',
      // 19 s: a full window of idle ticks after the last held-off one, with no keep-alive left.
      'Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => idle',
    ]);
    expect(await triggers(h)).toEqual(['Stop p1 idle ok=true']);
    const iso = new Date(until).toISOString();
    expect(heldOffLines(h)).toEqual([
      `idle stop held off by keep-alive until ${iso}`,
      `idle stop held off by keep-alive until ${iso}`,
    ]);
    // The streak that fell due, before the hold restarted it.
    expect(h.logs.find('idle stop held off')[0]).toMatchObject({
      pod: 'qwen',
      keepAliveUntil: iso,
      idleStreak: 6,
    });
    expect(h.now).toBe(T0 + 19_000);
  });

  it('a keep-alive set after the pod went idle still holds off the stop that falls due', async () => {
    const h = harness();
    scrape(h, 0);
    await h.lines(6);
    await h.keepAliveFor(60_000);
    const due = await h.next();

    expect(due.line).toBe('Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1');
    expect(due.outcome).toMatchObject({ kind: 'advanced', stop: null });
    expect(await triggers(h)).toEqual([]);
  });

  it('the runtime cap still stops a pod under a keep-alive (the cap is the cost backstop)', async () => {
    const h = harness({ env: { MAX_RUNTIME_MINUTES: '1' } });
    scrape(h, 0);
    await h.keepAliveFor(24 * 60 * 60_000);
    const idle = await h.lines(3);
    const due = await h.next(58_000);

    expect(idle).toEqual([
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=1 boot=0 ready=1s up=1s | list, metrics p1',
      'Ready idle=2 boot=0 ready=1s up=1s | list, metrics p1',
    ]);
    expect(due.line).toBe('Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => runtime-cap');
    expect(await triggers(h)).toEqual(['Stop p1 runtime-cap ok=true']);
    expect(heldOffLines(h)).toEqual([]);
  });

  it('boot grace still stops a never-ready pod under a keep-alive', async () => {
    const h = harness({ env: { RUNPOD_BOOT_GRACE_MINUTES: '0.05' } });
    h.fake.setPod('p1', { metrics: null, observation: 'Running' });
    await h.keepAliveFor(24 * 60 * 60_000);
    const lines = await h.lines(3);

    expect(lines[2]).toBe(
      'Down idle=0 boot=0 ready=- up=- | list, metrics p1, observe p1, stop p1 => boot-grace',
    );
    expect(await triggers(h)).toEqual(['Stop p1 boot-grace ok=true']);
  });

  it.each([
    ['fails', { get: () => Promise.reject(new Error('ECONNREFUSED scripted')) }, 'ECONNREFUSED scripted'],
    [
      'never answers',
      { get: () => new Promise<number | null>(() => undefined) },
      'keep-alive read timed out after 50 ms',
    ],
  ])(
    'a keep-alive read that %s counts as no keep-alive: the idle stop comes on time and a warning is logged',
    async (_rule, keepAliveReader, why) => {
      const h = harness({ keepAliveReader, env: { REDIS_READ_TIMEOUT_MS: '50' } });
      scrape(h, 0);
      const lines = await h.lines(7);

      expect(lines[6]).toBe('Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => idle');
      expect(await triggers(h)).toEqual(['Stop p1 idle ok=true']);
      const warnings = h.logs.lines.filter(
        (l) => l.level === 40 && l.msg.startsWith('keep-alive unreadable'),
      );
      expect(warnings).toEqual([expect.objectContaining({ pod: 'qwen', err: why })]);
    },
  );

  it('a cleared keep-alive no longer holds', async () => {
    const h = harness();
    scrape(h, 0);
    await h.keepAliveFor(60_000);
    await h.keepAlives.clear('qwen');
    const lines = await h.lines(7);

    expect(lines[6]).toBe('Down idle=0 boot=0 ready=- up=- | list, metrics p1, stop p1 => idle');
    expect(heldOffLines(h)).toEqual([]);
  });
  it('a pod that never obtains a runtime is stopped after the boot grace whatever protects it: a serving sibling and a keep-alive', async () => {
    const h = harness({ env: { RUNPOD_BOOT_GRACE_MINUTES: '0.05' } });
    h.fake.setPod('p1', { metrics: { active: 1, completed: 1 } });
    h.fake.setPod('p2', { metrics: null, observation: 'Starting' });
    await h.keepAliveFor(3_600_000);
    const lines = await h.lines(5);

    expect(lines).toEqual([
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1, metrics p2, observe p2',
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1, metrics p2, observe p2',
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1, metrics p2, observe p2',
      // 3 s without a runtime (0.05 min): stopped, though the volume is Ready and held.
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1, metrics p2, observe p2, stop p2',
      'Ready idle=0 boot=0 ready=1s up=1s | list, metrics p1, metrics p2, observe p2',
    ]);
    expect(await triggers(h)).toEqual(['Stop p2 boot-grace ok=true']);
  });
});
