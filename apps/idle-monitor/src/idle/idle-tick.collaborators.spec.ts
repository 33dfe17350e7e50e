import type { PodConfig, PodList } from '@podwarden/policies';
import type { BootCheck } from '../diagnosis/boot-diagnoser';
import type { TickStatusEffects } from './tick-status-effects';
import type { IdleTickHarness } from './testing/idle-tick-harness';
import { T0, idleTickHarnesses } from './testing/idle-tick-harness';

// The tick's optional collaborators: what each is handed and when, on the harness's real stores.
const harness = idleTickHarnesses();

function scrape(h: IdleTickHarness, completed: number, active = 0): void {
  h.fake.setPod('p1', { metrics: { active, completed } });
}

/** Every call the collaborators received, in order, as plain data. */
function recorder() {
  const calls: unknown[][] = [];
  const status = {
    begin: (pods: readonly PodConfig[]) => {
      calls.push(['begin', pods.map((p) => p.name)]);
      return Promise.resolve(new Map(pods.map((p) => [p.name, { generation: 1, observedAt: 0 }])));
    },
    publish: (pod: PodConfig, ticket: unknown) => {
      calls.push(['publish', pod.name, ticket]);
      return Promise.resolve();
    },
    becameReady: (pod: PodConfig, edge: unknown) => {
      calls.push(['becameReady', pod.name, edge]);
      return Promise.resolve();
    },
  } as unknown as TickStatusEffects;
  const ledger = {
    settle: (pod: string, upSince: number | null, now: number) => {
      calls.push(['settle', pod, upSince, now]);
      return Promise.resolve(null);
    },
  };
  const orphans = {
    sweep: (pods: readonly { id: string }[], signal?: AbortSignal) => {
      calls.push(['sweep', pods.map((p) => p.id), signal === undefined ? 'no signal' : 'signal']);
      return Promise.resolve();
    },
  };
  const reader = {
    read: (pods: readonly PodConfig[], list: PodList, listedAt: number) => {
      calls.push(['read', pods.map((p) => p.name), list.kind, listedAt]);
      return Promise.resolve();
    },
  };
  const of = (kind: string) => calls.filter((c) => c[0] === kind);
  return { calls, of, extras: { status, ledger, orphans, listReaders: [reader] } };
}

describe('IdleTickService: its collaborators', () => {
  it('a ready edge hands the status the serving pod, the ready time and its listed GPU and price', async () => {
    const r = recorder();
    const h = harness({ extras: r.extras });
    scrape(h, 0);
    await h.next();
    expect(r.of('becameReady')).toEqual([
      ['becameReady', 'qwen', { podId: 'p1', at: T0 + 1000, gpuId: 'NVIDIA L40S', pricePerHour: 0.86 }],
    ]);
    await h.next();
    // Once per boot, not per ready tick.
    expect(r.of('becameReady')).toHaveLength(1);
  });

  it('a ready pod listed without a GPU or price is handed with both unknown', async () => {
    const r = recorder();
    const h = harness({ extras: r.extras });
    scrape(h, 0);
    h.fake.setPod('p1', { gpuId: null, costPerHr: null });
    await h.next();
    expect(r.of('becameReady')).toEqual([
      ['becameReady', 'qwen', { podId: 'p1', at: T0 + 1000, gpuId: null, pricePerHour: null }],
    ]);
  });

  it("the status snapshot is published under the ticket taken before the tick's list", async () => {
    const r = recorder();
    const h = harness({ extras: r.extras });
    scrape(h, 0);
    await h.next();
    expect(r.calls.filter((c) => c[0] === 'begin' || c[0] === 'publish')).toEqual([
      ['begin', ['qwen']],
      ['publish', 'qwen', { generation: 1, observedAt: 0 }],
    ]);
  });

  it('the run is settled on the tick whose stop is accepted, from the cap clock start', async () => {
    const r = recorder();
    const h = harness({ extras: r.extras });
    scrape(h, 0);
    const lines = await h.lines(7);
    expect(lines.at(-1)).toMatch(/stop p1 => idle$/);
    expect(r.of('settle')).toEqual([['settle', 'qwen', T0 + 1000, T0 + 7000]]);
  });

  it('a refused stop settles nothing', async () => {
    const r = recorder();
    const h = harness({ extras: r.extras });
    scrape(h, 0);
    h.fake.setPod('p1', { stop: 'refused' });
    const lines = await h.lines(7);
    expect(lines.at(-1)).toMatch(/stop p1 => idle$/);
    expect(r.of('settle')).toEqual([]);
  });

  it('a volume seen down is settled every tick (the ledger is idempotent); a busy one never', async () => {
    const r = recorder();
    const h = harness({ extras: r.extras });
    scrape(h, 0, 1);
    await h.lines(2);
    expect(r.of('settle')).toEqual([]);
    h.fake.removePod('p1');
    await h.lines(2);
    expect(r.of('settle')).toEqual([
      ['settle', 'qwen', T0 + 1000, T0 + 3000],
      ['settle', 'qwen', null, T0 + 4000],
    ]);
  });

  it('the orphan sweep gets the listed pods and the tick signal; the list readers get the list and when it was asked for', async () => {
    const r = recorder();
    const h = harness({ extras: r.extras });
    scrape(h, 0);
    h.fake.setPod('stray', { volumeId: null });
    h.now += 1000;
    const aborts = new AbortController();
    await h.tick.run('t-1', null, aborts.signal);
    expect(r.calls.filter((c) => c[0] === 'sweep' || c[0] === 'read')).toEqual([
      ['sweep', ['p1', 'stray'], 'signal'],
      ['read', ['qwen'], 'listed', T0 + 1000],
    ]);
  });

  it('an unreadable list is swept by nobody but still handed to the list readers', async () => {
    const r = recorder();
    const h = harness({ extras: r.extras });
    h.fake.setPod('p1').listFails();
    await h.next();
    expect(r.calls.filter((c) => c[0] === 'sweep' || c[0] === 'read')).toEqual([
      ['read', ['qwen'], 'unreadable', T0 + 1000],
    ]);
  });

  it('without an API key nothing is listed, swept or read, and every pod is unconfigured', async () => {
    const r = recorder();
    const h = harness({ env: { RUNPOD_API_KEY: '' }, extras: r.extras });
    const { outcomes, calls } = await h.next();
    expect(calls).toEqual([]);
    expect([...outcomes.entries()]).toEqual([['qwen', { kind: 'skipped', why: 'unconfigured' }]]);
    expect(r.calls).toEqual([['begin', []]]);
  });

  it('a diagnosed restart loop stops the pod now, with what the diagnoser was shown', async () => {
    const checks: BootCheck[] = [];
    const h = harness({
      extras: {
        boots: {
          check: (check: BootCheck) => {
            checks.push(check);
            return Promise.resolve('restart-loop' as const);
          },
        },
      },
    });
    h.fake.setPod('p1', { metrics: null, observation: 'Running' });
    const { line } = await h.next();
    expect(line).toBe(
      'Down idle=0 boot=0 ready=- up=- | list, metrics p1, observe p1, stop p1 => restart-loop',
    );
    expect(checks).toEqual([
      expect.objectContaining({
        pod: h.pod(),
        stopDue: null,
        perPod: [{ podId: 'p1', signal: 'UnreachableButRunning' }],
        listed: [expect.objectContaining({ id: 'p1' })],
        state: expect.objectContaining({ phase: 'Booting', bootingTicks: 1 }),
      }),
    ]);
  });

  it('the scheduled time of the last tick is kept when a tick comes without one', async () => {
    const h = harness();
    scrape(h, 0);
    h.now += 1000;
    await h.tick.run('t-1', T0 + 500);
    expect((await h.store.load('qwen')).lastTickScheduledAt).toBe(T0 + 500);
    h.now += 1000;
    await h.tick.run('t-2');
    expect((await h.store.load('qwen')).lastTickScheduledAt).toBe(T0 + 500);
  });

  it('an accepted stop clears the pods seen up; a running pod is kept as seen up', async () => {
    const h = harness();
    scrape(h, 0);
    const first = await h.next();
    expect(first.record.seenUp).toEqual(['p1']);
    await h.lines(5);
    const stopped = await h.next();
    expect(stopped.line).toMatch(/=> idle$/);
    expect(stopped.record.seenUp).toEqual([]);
  });

  it('a tick cancelled before it acts writes nothing and stops nothing', async () => {
    const h = harness();
    scrape(h, 0);
    await h.lines(6);
    const before = await h.store.load('qwen');
    const aborts = new AbortController();
    aborts.abort(new Error('job cancelled'));
    h.now += 1000;
    await expect(h.tick.run('cancelled', null, aborts.signal)).rejects.toThrow('job cancelled');
    expect(h.fake.billableCalls).toEqual([]);
    expect(await h.store.load('qwen')).toEqual(before);
  });
});
