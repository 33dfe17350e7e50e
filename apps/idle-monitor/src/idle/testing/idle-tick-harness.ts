import type Redis from 'ioredis';
import { parseConfig, type IdleState, type PodConfig, type PodwardenConfig } from '@podwarden/policies';
import {
  ActionLog,
  IdleStateStore,
  KeepAliveStore,
  ProxyActivityStore,
  RedisKeys,
  RhythmStore,
  StopService,
  UsageStore,
  type WakeHistory,
  type ActionRecord,
  type IdleRecord,
} from '@podwarden/platform';
import { newStopService } from '@podwarden/platform/testing/new-stop-service';
import {
  FakeRunPod,
  RecordedEvents,
  TEST_REDIS_URL,
  captureLogs,
  connectTestRedis,
  deleteKeysUnder,
  uniqueTestPrefix,
  type CapturedLogs,
} from '@podwarden/testing';
import type { IdleTickService, PodTickOutcome } from '../idle-tick.service';
import type { IdleTickDependencies } from '../idle-tick-dependencies';
import type { KeepAliveReader } from '../keep-alive-reading';
import { newIdleTickService } from './new-idle-tick-service';
import { RhythmKeeper, type PrewakeOutcome } from '../../rhythm/rhythm-keeper';

/** Tick n runs at T0 + n seconds unless a test moves the clock further. */
export const T0 = Date.UTC(2026, 10, 30, 10, 0, 0);

export interface IdleTickHarnessOptions {
  readonly redis: Redis;
  readonly prefix: string;
  /**
   * Added to (and overriding) the base environment: one pod "qwen" on vol-1, IDLE_MINUTES 0.1,
   * CHECK_SECONDS 1, and IDLE_CONCURRENCY 1, which makes the fake's call log one deterministic sequence.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** The PODS_CONFIG file's text; PODS_CONFIG is set for the parser when given. */
  readonly podsConfig?: string;
  /** What the tick reads keep-alives from; the real store on this Redis by default. */
  readonly keepAliveReader?: KeepAliveReader;
  /** What the tick reads the proxies' traffic from; the real store on this Redis by default. */
  readonly proxyActivityReader?: Pick<ProxyActivityStore, 'read'>;
  /** The tick's collaborators (ledger, status, orphan sweep, list readers, boot diagnoser); recording fakes by default. */
  readonly extras?: Partial<
    Pick<IdleTickDependencies, 'ledger' | 'status' | 'orphans' | 'listReaders' | 'boots' | 'pendingStops'>
  >;
  /** Runs the usage record and the adaptive window and pre-wakes (RhythmKeeper) on this Redis. */
  readonly rhythm?: boolean;
  /** The wake history the rhythm keeper reads a boot's wake from; an empty one by default. */
  readonly rhythmHistory?: Pick<WakeHistory, 'recent'>;
}

export interface TickResult {
  readonly tickId: string;
  readonly outcomes: Map<string, PodTickOutcome>;
  /** The first configured pod's outcome and stored record after the tick. */
  readonly outcome: PodTickOutcome;
  readonly record: IdleRecord;
  /** This tick's control-plane calls, in order. */
  readonly calls: string[];
  /** One line naming the state after the tick, the calls made and the stop asked for. */
  readonly line: string;
}

/**
 * The real IdleTickService, StopService, ActionLog and IdleStateStore on a real Redis,
 * with a scripted RunPod and a clock the test moves. Everything RunPod-facing
 * is read from `fake`; everything remembered is read back from Redis.
 */
export class IdleTickHarness {
  readonly fake = new FakeRunPod();
  readonly logs: CapturedLogs = captureLogs('debug');
  readonly config: PodwardenConfig;
  readonly keys: RedisKeys;
  readonly store: IdleStateStore;
  readonly actions: ActionLog;
  readonly stops: StopService;
  readonly keepAlives: KeepAliveStore;
  readonly proxyActivity: ProxyActivityStore;
  readonly tick: IdleTickService;
  /** What the ticks announced on the event stream. */
  readonly events = new RecordedEvents();
  readonly usage: UsageStore;
  readonly rhythms: RhythmStore;
  /** The pods a pre-wake was enqueued for, and the pre-wakes counted by outcome, in order. */
  readonly prewakesEnqueued: string[] = [];
  readonly prewakeOutcomes: PrewakeOutcome[] = [];
  now = T0;
  private tickCount = 0;
  private readonly replicaConnections: Redis[] = [];
  private readonly gates: Gate[] = [];

  constructor(private readonly options: IdleTickHarnessOptions) {
    this.config = harnessConfig(options);
    this.keys = new RedisKeys(this.config.redis.prefix);
    this.store = new IdleStateStore(options.redis, this.keys);
    this.actions = new ActionLog(options.redis, this.keys, this.logs.logger);
    this.keepAlives = new KeepAliveStore(options.redis, this.keys);
    // The proxies' records are written and judged on the harness clock, like everything else here.
    this.proxyActivity = new ProxyActivityStore(options.redis, this.keys, {
      now: () => Promise.resolve(this.now),
    });
    this.usage = new UsageStore(options.redis, this.keys, this.config.rhythm.usageRetentionDays);
    this.rhythms = new RhythmStore(options.redis, this.keys);
    this.stops = newStopService({
      config: this.config,
      client: this.fake.asRunPodClient(),
      actions: this.actions,
      idleStates: this.store,
      logger: this.logs.logger,
      events: this.events,
    });
    this.tick = this.newTick(this.store, this.stops);
  }

  /** A gate opened at the latest when the harness closes, so a failed test never leaves a tick hanging. */
  gate(): Gate {
    let open!: () => void;
    const promise = new Promise<void>((resolve) => {
      open = resolve;
    });
    const gate = { promise, open };
    this.gates.push(gate);
    return gate;
  }

  /** The Redis connection every store of this harness uses. */
  get redis(): Redis {
    return this.options.redis;
  }

  /** The configured pod by name; the first one by default. */
  pod(name?: string): PodConfig {
    const pod = name === undefined ? this.config.pods[0] : this.config.pods.find((p) => p.name === name);
    if (pod === undefined) throw new Error(`no configured pod ${name}`);
    return pod;
  }

  /** Moves the clock (1 s, one CHECK_SECONDS, by default) and runs the next tick, `tick-N`. */
  async next(advanceMs = 1000): Promise<TickResult> {
    this.now += advanceMs;
    this.tickCount += 1;
    return this.run(`tick-${this.tickCount}`);
  }

  /** Runs a tick with this id at the current clock (a re-run after a stall uses an id already seen). */
  async run(tickId: string, tick: IdleTickService = this.tick): Promise<TickResult> {
    const outcomes = await tick.run(tickId);
    return this.resultOf(tickId, outcomes);
  }

  async resultOf(tickId: string, outcomes: Map<string, PodTickOutcome>): Promise<TickResult> {
    const name = this.pod().name;
    const outcome = outcomes.get(name);
    if (outcome === undefined) throw new Error(`tick ${tickId} reported nothing for ${name}`);
    const record = await this.store.load(name);
    const calls = this.fake.takeCalls();
    return { tickId, outcomes, outcome, record, calls, line: tickLine(record.state, calls, outcome) };
  }

  /** Sets the pod's keep-alive `ms` past the harness clock (the key's expiry follows the same clock). */
  async keepAliveFor(ms: number, podName: string = this.pod().name): Promise<number> {
    const until = this.now + ms;
    await this.keepAlives.set(podName, until, this.now);
    return until;
  }

  /** Runs `count` ticks and returns their lines. */
  async lines(count: number): Promise<string[]> {
    const lines: string[] = [];
    for (let i = 0; i < count; i += 1) lines.push((await this.next()).line);
    return lines;
  }

  /** Resolves once the fake has logged `call` (the tick reached it); a generous deadline, never a window. */
  async untilCalled(call: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.fake.calls.includes(call)) {
      if (Date.now() > deadline)
        throw new Error(`no ${call} within ${timeoutMs} ms; calls: ${this.fake.calls.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** The pod's action log, oldest first. */
  async actionsOf(podName: string = this.pod().name): Promise<ActionRecord[]> {
    return (await this.actions.recent(podName, 100)).reverse();
  }

  /** Another monitor replica: its own Redis connection, store and stop service, the same RunPod and clock. */
  replica(): IdleTickService {
    const redis = connectTestRedis();
    this.replicaConnections.push(redis);
    const store = new IdleStateStore(redis, this.keys);
    const actions = new ActionLog(redis, this.keys, this.logs.logger);
    const stops = newStopService({
      config: this.config,
      client: this.fake.asRunPodClient(),
      actions,
      idleStates: store,
      logger: this.logs.logger,
    });
    return this.newTick(store, stops);
  }

  async close(): Promise<void> {
    for (const gate of this.gates) gate.open();
    for (const redis of this.replicaConnections) await redis.quit();
    await deleteKeysUnder(this.options.redis, this.config.redis.prefix);
  }

  private newTick(store: IdleStateStore, stops: StopService): IdleTickService {
    return newIdleTickService({
      config: this.config,
      client: this.fake,
      store,
      stops,
      // Keep-alives are judged on the harness clock as stored, not by their real time left in Redis.
      keepAlives: this.options.keepAliveReader ?? { get: (pod: string) => this.keepAlives.get(pod) },
      proxyActivity: this.options.proxyActivityReader ?? this.proxyActivity,
      logger: this.logs.logger,
      events: this.events,
      now: () => this.now,
      ...this.options.extras,
      ...(this.options.rhythm ? { rhythm: this.rhythmKeeper() } : {}),
    }).service;
  }

  private rhythmKeeper(): RhythmKeeper {
    return new RhythmKeeper({
      config: this.config,
      usage: this.usage,
      rhythms: this.rhythms,
      history: this.options.rhythmHistory ?? { recent: () => Promise.resolve([]) },
      enqueue: (pod) => {
        this.prewakesEnqueued.push(pod.name);
        return Promise.resolve(`prewake-${this.prewakesEnqueued.length}`);
      },
      // No spec here sets a daily budget, so the pre-wake's budget check never reads it.
      ledger: { figures: () => Promise.reject(new Error('no daily budget in the idle-tick specs')) },
      events: this.events,
      countPrewake: (_pod, outcome) => this.prewakeOutcomes.push(outcome),
      logger: this.logs.logger,
    });
  }
}

/** A promise the test opens by hand: holds a fake's answer until the test lets it go. */
export interface Gate {
  readonly promise: Promise<void>;
  open(): void;
}

export type HarnessOptions = Omit<IdleTickHarnessOptions, 'redis' | 'prefix'>;

/**
 * Registers the jest hooks for one spec file (one Redis connection, one key
 * prefix, every harness closed and its keys deleted after each test) and
 * returns the factory the tests build their harness with.
 */
export function idleTickHarnesses(): (options?: HarnessOptions) => IdleTickHarness {
  const prefix = uniqueTestPrefix('idle-tick');
  const open: IdleTickHarness[] = [];
  let redis: Redis | null = null;
  beforeAll(() => {
    redis = connectTestRedis();
  });
  afterEach(async () => {
    for (const harness of open.splice(0)) await harness.close();
  });
  afterAll(async () => {
    if (redis === null) return;
    await deleteKeysUnder(redis, prefix);
    await redis.quit();
  });
  return (options = {}) => {
    if (redis === null) throw new Error('build harnesses inside a test');
    const harness = new IdleTickHarness({ ...options, redis, prefix });
    open.push(harness);
    return harness;
  };
}

function harnessConfig(options: IdleTickHarnessOptions): PodwardenConfig {
  const env: Record<string, string> = {
    RUNPOD_API_KEY: 'rpa_test_key',
    RUNPOD_VOLUME_ID: 'vol-1',
    RUNPOD_POD_NAME: 'qwen',
    IDLE_MINUTES: '0.1',
    CHECK_SECONDS: '1',
    RUNPOD_BOOT_GRACE_MINUTES: '20',
    MAX_RUNTIME_MINUTES: '360',
    IDLE_CONCURRENCY: '1',
    QUEUE_PREFIX: options.prefix,
    REDIS_URL: TEST_REDIS_URL,
    ...(options.podsConfig === undefined ? {} : { PODS_CONFIG: '/etc/podwarden/pods.json' }),
    ...options.env,
  };
  const parsed = parseConfig(env, options.podsConfig ?? null);
  if (!parsed.ok) throw new Error(`test config refused: ${parsed.error}`);
  // A typo in a test's environment would silently fall back to a default and test something else.
  if (parsed.warnings.length > 0) throw new Error(`test config warnings: ${parsed.warnings.join('; ')}`);
  return parsed.config;
}

/** Seconds after T0, or '-' for an unset time. */
function at(ms: number | null): string {
  return ms === null ? '-' : `${(ms - T0) / 1000}s`;
}

/** e.g. 'Ready idle=2 boot=0 ready=3s up=1s': the phase, both counters and both clocks. */
export function stateLine(state: IdleState): string {
  return (
    `${state.phase} idle=${state.idleStreak} boot=${state.bootingTicks} ` +
    `ready=${at(state.readySince)} up=${at(state.upSince)}`
  );
}

/**
 * The state line, the tick's calls and, when the tick asked for a stop,
 * ' => <reason>'; a skipped tick says so first. e.g.
 * 'Ready idle=5 boot=0 ready=1s up=1s | list, metrics p1, stop p1 => idle'.
 */
export function tickLine(state: IdleState, calls: readonly string[], outcome: PodTickOutcome): string {
  const skipped = outcome.kind === 'skipped' ? `skipped:${outcome.why} ` : '';
  const stop = outcome.kind === 'advanced' && outcome.stop !== null ? ` => ${outcome.stop}` : '';
  return `${skipped}${stateLine(state)} | ${calls.join(', ')}${stop}`;
}
