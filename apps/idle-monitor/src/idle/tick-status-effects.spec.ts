import type { PodObservation, ReadySample, VolumeLookup } from '@podwarden/policies';
import {
  NO_COMPLETION,
  type PublishTicket,
  type VolumeReading,
  type WakeAttemptView,
} from '@podwarden/platform';
import { LEVEL, captureLogs, testConfig } from '@podwarden/testing';
import { TickStatusEffects, type ReadyEdge } from './tick-status-effects';

const CONFIG = testConfig({ PODS_CONFIG: '' });
const POD = CONFIG.pods[0];
const REQUESTED = '2026-12-01T10:00:00.000Z';
const READY_AT = Date.parse('2026-12-01T10:04:30.000Z');

const running = (podId: string): PodObservation => ({ kind: 'found', podId, status: 'Running', gpuCount: 1 });

function attempt(fields: Partial<WakeAttemptView> = {}): WakeAttemptView {
  return {
    ...NO_COMPLETION,
    attemptId: 'a-1',
    requestedAt: REQUESTED,
    requestedBy: null,
    wakeOutcome: 'Created',
    podId: 'p1',
    gpuId: 'NVIDIA A40',
    ...fields,
  };
}

/** Every dependency as a recording fake; `history` and the writes answer what each spec sets. */
function setup(options: { timeoutMs?: number } = {}) {
  const logs = captureLogs();
  const published: Array<{ pod: string; ticket: PublishTicket | null; volume: VolumeReading | null }> = [];
  const begun: string[] = [];
  const readyEdges: Array<{ pod: string; edge: unknown }> = [];
  const samples: Array<{ pod: string; sample: ReadySample; readyAt: number }> = [];
  const script = {
    history: (): Promise<WakeAttemptView[]> => Promise.resolve([attempt()]),
    historyAsked: [] as Array<[string, number]>,
    add: (): Promise<void> => Promise.resolve(),
  };
  const effects = new TickStatusEffects({
    publisher: {
      begin: (pod) => {
        begun.push(pod);
        return Promise.resolve(
          pod === 'none' ? null : { generation: begun.length, observedAt: 1000 + begun.length },
        );
      },
      publish: (pod, ticket, volume) => {
        published.push({ pod, ticket, volume });
        return Promise.resolve();
      },
    },
    history: {
      recent: (pod, limit) => {
        script.historyAsked.push([pod, limit]);
        return script.history();
      },
    },
    readyTimes: {
      add: (pod, sample, readyAt) => {
        samples.push({ pod, sample, readyAt });
        return script.add();
      },
    },
    readyLog: {
      record: (pod, edge) => {
        readyEdges.push({ pod, edge });
        return Promise.resolve();
      },
    },
    logger: logs.logger,
    timeoutMs: options.timeoutMs ?? 5_000,
  });
  return { effects, logs, published, begun, readyEdges, samples, script };
}

const EDGE: ReadyEdge = { podId: 'p1', at: READY_AT, gpuId: 'NVIDIA L40S', pricePerHour: 0.86 };

describe(TickStatusEffects.name, () => {
  describe('begin', () => {
    it("answers each pod's ticket under its name, a pod without one as null", async () => {
      const { effects, begun } = setup();
      const pods = [POD, { ...POD, name: 'none' }, { ...POD, name: 'other' }];
      const tickets = await effects.begin(pods);
      expect(begun).toEqual([POD.name, 'none', 'other']);
      expect([...tickets.entries()]).toEqual([
        [POD.name, { generation: 1, observedAt: 1001 }],
        ['none', null],
        ['other', { generation: 3, observedAt: 1003 }],
      ]);
    });
  });

  describe('publish', () => {
    const ticket: PublishTicket = { generation: 7, observedAt: 1234 };
    const found: VolumeLookup = { kind: 'found', podIds: ['p1', 'p2'] };

    it('publishes the volume with every pod as observed, under the ticket taken before the list', async () => {
      const { effects, published } = setup();
      await effects.publish(POD, ticket, found, [
        { podId: 'p1', observation: running('p1') },
        { podId: 'p2', observation: { kind: 'not-found', podId: 'p2' } },
      ]);
      expect(published).toEqual([
        {
          pod: POD.name,
          ticket,
          volume: {
            kind: 'found',
            pods: [
              { podId: 'p1', observation: running('p1') },
              { podId: 'p2', observation: { kind: 'not-found', podId: 'p2' } },
            ],
          },
        },
      ]);
    });

    it('a pod left unobserved this tick makes the volume unpublishable (null), not a partial snapshot', async () => {
      const { effects, published } = setup();
      await effects.publish(POD, ticket, found, [
        { podId: 'p1', observation: running('p1') },
        { podId: 'p2', observation: null },
      ]);
      expect(published).toEqual([{ pod: POD.name, ticket, volume: null }]);
    });

    it('an empty or unreadable volume is published as such', async () => {
      const { effects, published } = setup();
      await effects.publish(POD, null, { kind: 'not-found' }, []);
      await effects.publish(POD, ticket, { kind: 'unreadable', reason: 'HTTP 500' }, []);
      expect(published).toEqual([
        { pod: POD.name, ticket: null, volume: { kind: 'not-found' } },
        { pod: POD.name, ticket, volume: { kind: 'unreadable' } },
      ]);
    });
  });

  describe('becameReady', () => {
    it('records the ready edge, then the time-to-ready of the wake that created the pod', async () => {
      const { effects, readyEdges, samples, script, logs } = setup();
      // The wake record it read is answered, for the rhythm keeper's boot (not read twice).
      expect(await effects.becameReady(POD, EDGE)).toEqual({ attempt: attempt() });
      expect(readyEdges).toEqual([
        {
          pod: POD.name,
          edge: { at: '2026-12-01T10:04:30.000Z', podId: 'p1', gpuId: 'NVIDIA L40S', pricePerHour: 0.86 },
        },
      ]);
      expect(script.historyAsked).toEqual([[POD.name, 1]]);
      const sample = { attemptId: 'a-1', gpuId: 'NVIDIA L40S', readyAfterMs: 270_000 };
      expect(samples).toEqual([{ pod: POD.name, sample, readyAt: READY_AT }]);
      expect(logs.lines).toEqual([
        expect.objectContaining({
          level: LEVEL.debug,
          pod: POD.name,
          ...sample,
          msg: 'recorded time-to-ready',
        }),
      ]);
    });

    it("takes the wake's GPU when the list did not name one", async () => {
      const { effects, samples } = setup();
      await effects.becameReady(POD, { ...EDGE, gpuId: null });
      expect(samples.map((s) => s.sample)).toEqual([
        { attemptId: 'a-1', gpuId: 'NVIDIA A40', readyAfterMs: 270_000 },
      ]);
    });

    it('a wake still in flight (no outcome yet) counts', async () => {
      const { effects, samples, script } = setup();
      script.history = () => Promise.resolve([attempt({ wakeOutcome: null, podId: null })]);
      await effects.becameReady(POD, EDGE);
      expect(samples.map((s) => s.sample.readyAfterMs)).toEqual([270_000]);
    });

    it.each([
      ['no wake in the history (a pod started by hand)', [] as WakeAttemptView[]],
      ['a wake that failed', [attempt({ wakeOutcome: 'Failed' })]],
      ['a wake that brought up another pod', [attempt({ podId: 'p9' })]],
      ['a wake requested after the edge', [attempt({ requestedAt: '2026-12-01T10:05:00.000Z' })]],
    ])('%s: the edge is recorded, no time-to-ready and no log line', async (_what, recent) => {
      const { effects, readyEdges, samples, script, logs } = setup();
      script.history = () => Promise.resolve(recent);
      expect(await effects.becameReady(POD, EDGE)).toEqual({ attempt: recent[0] });
      expect(readyEdges).toHaveLength(1);
      expect(samples).toEqual([]);
      expect(logs.lines).toEqual([]);
    });

    it('an unreadable history is one Warning naming the cause; the edge stays recorded, nothing throws', async () => {
      const { effects, readyEdges, samples, script, logs } = setup();
      script.history = () => Promise.reject(new Error('connection lost'));
      await expect(effects.becameReady(POD, EDGE)).resolves.toBeNull();
      expect(readyEdges).toHaveLength(1);
      expect(samples).toEqual([]);
      expect(logs.lines).toEqual([
        expect.objectContaining({
          level: LEVEL.warn,
          pod: POD.name,
          err: 'connection lost',
          msg: 'time-to-ready not recorded',
        }),
      ]);
    });

    it('a history read that never answers is cut off at the timeout and named', async () => {
      const { effects, samples, script, logs } = setup({ timeoutMs: 5 });
      script.history = () => new Promise<never>(() => undefined);
      expect(await effects.becameReady(POD, EDGE)).toBeNull();
      expect(samples).toEqual([]);
      expect(logs.lines).toEqual([
        expect.objectContaining({ level: LEVEL.warn, err: 'wake history read timed out after 5 ms' }),
      ]);
    });

    it('a ready time write that never answers is cut off at the timeout and named', async () => {
      const { effects, samples, script, logs } = setup({ timeoutMs: 5 });
      script.add = () => new Promise<never>(() => undefined);
      // The read itself succeeded: its record is still answered.
      expect(await effects.becameReady(POD, EDGE)).toEqual({ attempt: attempt() });
      expect(samples).toHaveLength(1);
      expect(logs.lines).toEqual([
        expect.objectContaining({ level: LEVEL.warn, err: 'ready time write timed out after 5 ms' }),
      ]);
    });
  });
});
