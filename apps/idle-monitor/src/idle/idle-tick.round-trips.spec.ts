import Redis from 'ioredis';
import {
  BillableIntents,
  BudgetLedger,
  PendingStopStore,
  RedisKeys,
  StatusPublisher,
  StatusSnapshotStore,
} from '@podwarden/platform';
import { TEST_REDIS_URL, captureLogs, deleteKeysUnder, uniqueTestPrefix } from '@podwarden/testing';
import { IdleTickHarness } from './testing/idle-tick-harness';
import { StopConfirmer } from './stop-confirmer';
import { StopIntentReconciler } from './stop-intent-reconciler';
import { TickStatusEffects } from './tick-status-effects';

const PODS = 200;
const prefix = uniqueTestPrefix('idle-round-trips');
const keys = new RedisKeys(prefix);
const podsConfig = JSON.stringify({
  pods: Array.from({ length: PODS }, (_, i) => ({ name: `pod${i}`, volumeId: `vol-${i}` })),
});

// No auto-pipelining here: every command this connection sends is a round trip of its own.
let redis: Redis;
const sent: string[] = [];
beforeAll(() => {
  redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 2 });
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
    sent.push(command.name);
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  }) as Redis['sendCommand'];
});
afterAll(async () => {
  await deleteKeysUnder(redis, prefix);
  await redis.quit();
});

/** A tick over PODS stopped pods, every Redis-backed collaborator real: status, ledger, confirmer, intents. */
function harness(env: Record<string, string>): IdleTickHarness {
  const logger = captureLogs().logger;
  const status = new TickStatusEffects({
    publisher: new StatusPublisher(new StatusSnapshotStore(redis, keys), logger, 1_000),
    history: { recent: () => Promise.resolve([]) },
    readyTimes: { add: () => Promise.resolve() },
    readyLog: { record: () => Promise.resolve() },
    logger,
    timeoutMs: 1_000,
  });
  const h: IdleTickHarness = new IdleTickHarness({
    redis,
    prefix,
    podsConfig,
    env,
    extras: {
      status,
      ledger: new BudgetLedger(redis, keys, { now: () => Promise.resolve(h.now) }),
      listReaders: [
        new StopConfirmer({
          config: configOf(() => h),
          pending: new PendingStopStore(redis, keys),
          locks: { withLock: (...args) => h.store.withLock(...args) },
          actions: { recent: () => Promise.resolve([]) },
          stops: { stopPods: () => Promise.reject(new Error('no stop expected')) },
          logger,
          now: () => h.now,
        }),
        new StopIntentReconciler({
          config: configOf(() => h),
          intents: new BillableIntents(redis, keys),
          actions: { record: () => Promise.reject(new Error('no record expected')) },
          logger,
          now: () => h.now,
        }),
      ],
    },
  });
  return h;
}

/** The harness's config, read when the collaborator first needs it (the harness is built after them). */
function configOf(h: () => IdleTickHarness): IdleTickHarness['config'] {
  return new Proxy({} as IdleTickHarness['config'], { get: (_, key) => Reflect.get(h().config, key) });
}

/** The commands of a tick's second run (the first loads the scripts: NOSCRIPT, then EVAL). */
async function commandsOfOneTick(h: IdleTickHarness): Promise<string[]> {
  h.now += 1_000;
  await h.tick.run('tick-1');
  sent.length = 0;
  h.now += 1_000;
  const outcomes = await h.tick.run('tick-2');
  const commands = [...sent];
  expect([...outcomes.values()].filter((o) => o.kind === 'advanced')).toHaveLength(PODS);
  return commands;
}

describe('IdleTickService: Redis round trips of a tick over many stopped pods', () => {
  afterEach(() => deleteKeysUnder(redis, prefix));

  it('one command per phase when every pod runs at once, whatever the number of pods', async () => {
    const commands = await commandsOfOneTick(harness({ IDLE_QUIET_CONCURRENCY: String(PODS) }));
    // Snapshot generations, pending stops, intents; then lock, load, proxy clock and traffic,
    // snapshot write, ledger read, fenced save, release: 10 phases, not 10 per pod.
    expect(commands).toHaveLength(10);
    expect(commands.filter((name) => name === 'set' || name === 'get' || name === 'hget')).toEqual([]);
  });

  it('with the default quiet lane (32 at once), one command per phase per 32 pods', async () => {
    const commands = await commandsOfOneTick(harness({}));
    const waves = Math.ceil(PODS / 32);
    expect(commands.length).toBeLessThanOrEqual(3 + waves * 8);
  });
});
