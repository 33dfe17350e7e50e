import { parseConfig, type PodList, type PodwardenConfig } from '@podwarden/policies';
import { ActionLog, BillableIntents, RedisKeys } from '@podwarden/platform';
import { FakeRunPod, captureLogs, useTestRedis } from '@podwarden/testing';
import { OrphanReaper } from './orphan-reaper';
import { StopIntentReconciler } from './stop-intent-reconciler';

const db = useTestRedis('orphan-intent');
const KEYS = new RedisKeys(db.prefix);
const NOW = Date.parse('2026-12-01T12:00:00Z');
const TIMEOUT_MS = 10_000;

function config(): PodwardenConfig {
  const parsed = parseConfig(
    { RUNPOD_API_KEY: 'k', RUNPOD_VOLUME_ID: 'vol-1', RUNPOD_TIMEOUT_MS: String(TIMEOUT_MS) },
    null,
  );
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
}

/** An orphan past its grace, and the reaper on real Redis; `killedAfterTheCall` makes the row's write die. */
async function setup(killedAfterTheCall: boolean) {
  const fake = new FakeRunPod();
  fake.setPod('orphan', {
    volumeId: null,
    name: 'podwarden-qwen-x',
    createdAt: new Date(NOW - 60 * 60_000).toISOString(),
    gpuId: 'NVIDIA A40',
    costPerHr: 0.44,
  });
  const list = await fake.listPods();
  if (list.kind !== 'listed') throw new Error('list');
  fake.calls.length = 0;
  const logs = captureLogs('debug');
  const clock = { now: NOW };
  const log = new ActionLog(db.redis, KEYS, logs.logger);
  const intents = new BillableIntents(db.redis, KEYS);
  // kill -9 between the DELETE and its row: the process never writes the row (here: the write throws).
  const actions: Pick<ActionLog, 'record'> = killedAfterTheCall
    ? { record: () => Promise.reject(new Error('killed (-9)')) }
    : log;
  const deps = {
    config: config(),
    client: fake,
    actions,
    logger: logs.logger,
    now: () => clock.now,
    intents,
  };
  const reaper = new OrphanReaper(deps);
  const reconciler = new StopIntentReconciler({
    config: config(),
    intents,
    actions: log,
    logger: logs.logger,
    now: () => clock.now,
  });
  return { fake, list, clock, log, intents, deps, reaper, reconciler };
}

describe('OrphanReaper: the write-ahead Terminate intent', () => {
  it('a reaper killed between its DELETE and the row leaves an open Terminate intent (trigger orphan) for the tick to record', async () => {
    const { fake, list, clock, log, intents, reaper, reconciler } = await setup(true);

    await reaper.sweep(list.pods);

    expect(fake.calls).toEqual(['terminate orphan']);
    expect(await intents.open('qwen')).toEqual([
      expect.objectContaining({
        action: 'Terminate',
        podId: 'orphan',
        trigger: 'orphan',
        answeredStatus: null,
      }),
    ]);

    // Past the client timeout the next tick's reconciler turns it into the call's row.
    clock.now = NOW + TIMEOUT_MS + 1;
    const listed: PodList = { kind: 'listed', pods: [] };
    await reconciler.read(config().pods, listed);
    expect(await intents.open('qwen')).toEqual([]);
    expect(await log.recent('qwen', 10)).toEqual([
      expect.objectContaining({
        action: 'Terminate',
        podId: 'orphan',
        trigger: 'orphan',
        httpStatus: 0,
        detail: expect.stringContaining('reconciled from an intent whose caller died'),
      }),
    ]);
  });

  it('an answered termination claims its intent with its row: one row, nothing left open', async () => {
    const { list, log, intents, reaper } = await setup(false);
    await reaper.sweep(list.pods);
    expect(await intents.open('qwen')).toEqual([]);
    expect(
      (await log.recent('qwen', 10)).map((r) => `${r.action} ${r.podId} ${r.trigger} ok=${r.ok}`),
    ).toEqual(['Terminate orphan orphan ok=true']);
  });

  it('an intent Redis refuses sends nothing: the next tick tries again', async () => {
    const { fake, list, deps } = await setup(false);
    const refusing = new OrphanReaper({
      ...deps,
      intents: { begin: () => Promise.reject(new Error('READONLY')) },
    });
    await refusing.sweep(list.pods);
    expect(fake.calls).toEqual([]);
  });
});
