import { AppProcess, eventually, type AppName } from './app-process';
import { freePort } from './free-port';

// Imports nothing but its folder's node-only modules: bench/lib/stack.js transpiles it with them.

export const VOLUME_ID = 'vol-eu-ro-1';
export const TEMPLATE_ID = 'tpl-vllm-qwen';

export interface LaunchOptions {
  /** Short name for the log files (and the caller's Redis prefix). */
  readonly name: string;
  readonly gateway?: boolean;
  readonly wakers?: number;
  readonly idleMonitors?: number;
  /** Inference proxies started at boot (more with startProxy()). */
  readonly proxies?: number;
  /** Extra env for every podwarden app (overrides the profile's). */
  readonly env?: Record<string, string>;
  /** Extra env for the simulator (SIM_* variables). */
  readonly simEnv?: Record<string, string>;
  /** Per app: extra env and node arguments (a test preload such as a skewed clock) for every process of it. */
  readonly perApp?: Partial<Record<AppName, AppLaunch>>;
  /** Which health route boot waits for: 'live' for a gateway meant to run without Redis. Default 'ready'. */
  readonly gatewayUp?: 'ready' | 'live';
  /** Whose dist/ runs the podwarden apps (a benchmark's baseline checkout); the simulator is always this one's. */
  readonly root?: string;
}

/** How one app is launched beyond the shared env: see skewedClock() in clock-skew.ts. */
export interface AppLaunch {
  readonly env?: Record<string, string>;
  readonly nodeArgs?: readonly string[];
}

/** What the e2e specs' stacks and the benchmarks' differ in: credentials, default env, deadline, cleanup. */
export interface StackProfile {
  readonly prefix: string;
  readonly redisUrl: string;
  readonly apiKey: string;
  readonly operatorToken: string;
  readonly wakeToken: string;
  /** Env every podwarden app gets before the options' own (log level, test-speed wake tunings, …). */
  readonly appEnv: Record<string, string>;
  /** A bound on a hang, never a measure of speed. */
  readonly startDeadlineMs: number;
  /** Deletes the stack's Redis keys once every process is down. */
  readonly cleanup: (prefix: string) => Promise<void>;
}

/**
 * The system as real processes: the simulator, the gateway, N wakers, M idle monitors and any inference
 * proxies, all on one Redis under a prefix of their own. test/support/stack.ts and bench/lib/stack.js add
 * their own requests on top.
 */
export class StackLauncher {
  readonly wakers: AppProcess[] = [];
  readonly idleMonitors: AppProcess[] = [];
  /** Inference proxies, and their base URLs in the same order. */
  readonly proxies: AppProcess[] = [];
  readonly proxyUrls: string[] = [];
  gateway: AppProcess | null = null;
  sim!: AppProcess;
  simUrl = '';
  gatewayUrl = '';
  readonly prefix: string;
  env: Record<string, string> = {};

  protected constructor(
    protected readonly options: LaunchOptions,
    protected readonly profile: StackProfile,
  ) {
    this.prefix = profile.prefix;
  }

  /** Boots every process; a boot that fails stops what it started, then rethrows. */
  protected async begin(): Promise<void> {
    try {
      await this.boot();
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  private async boot(): Promise<void> {
    const { profile, options } = this;
    const simPort = await freePort();
    this.simUrl = `http://127.0.0.1:${simPort}`;
    this.sim = AppProcess.start(
      'runpod-sim',
      {
        SIM_PORT: String(simPort),
        SIM_HOST: '127.0.0.1',
        SIM_API_KEY: profile.apiKey,
        ...(options.simEnv ?? {}),
      },
      `${options.name}-sim`,
    );
    await this.waitUp(`${this.simUrl}/_sim/health`, 'simulator up');

    const gatewayPort = await freePort();
    this.gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    this.env = {
      REDIS_URL: profile.redisUrl,
      QUEUE_PREFIX: this.prefix,
      RUNPOD_API_KEY: profile.apiKey,
      RUNPOD_V2_BASE_URL: `${this.simUrl}/v2`,
      RUNPOD_PROXY_URL_TEMPLATE: `${this.simUrl}/proxy/{podId}-{port}`,
      RUNPOD_VOLUME_ID: VOLUME_ID,
      RUNPOD_TEMPLATE_ID: TEMPLATE_ID,
      RUNPOD_DATACENTER_ID: 'EU-RO-1',
      RIG_OPERATOR_TOKEN: profile.operatorToken,
      RIG_WAKE_TOKEN: profile.wakeToken,
      PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      ...profile.appEnv,
      ...(options.env ?? {}),
    };
    const waits: Promise<unknown>[] = [];
    for (let i = 0; i < (options.wakers ?? 0); i++) waits.push(this.startWaker());
    for (let i = 0; i < (options.idleMonitors ?? 0); i++) waits.push(this.startIdleMonitor());
    for (let i = 0; i < (options.proxies ?? 0); i++) waits.push(this.startProxy());
    if (options.gateway ?? true) waits.push(this.startGateway('gateway'));
    await Promise.all(waits);
  }

  /**
   * The gateway's health route alone could answer from another process: a port freePort found free can be
   * taken by a parallel test before the gateway binds it (the gateway then exits with EADDRINUSE while the
   * other process answers). The gateway's own "listening" line proves it holds the port; on EADDRINUSE at
   * first start it is launched again on another free port.
   */
  private async startGateway(label: string, movablePort = true): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const gateway = this.launch('gateway', {}, `${this.options.name}-${label}`);
      this.gateway = gateway;
      try {
        await gateway.waitForMessage('gateway listening on', this.profile.startDeadlineMs);
        break;
      } catch (error) {
        const portTaken = gateway.messages().some((message) => message.includes('EADDRINUSE'));
        if (!movablePort || attempt >= 3 || gateway.running || !portTaken) throw error;
        const port = await freePort();
        this.gatewayUrl = `http://127.0.0.1:${port}`;
        this.env = { ...this.env, PORT: String(port) };
      }
    }
    await this.waitUp(`${this.gatewayUrl}/health/${this.options.gatewayUp ?? 'ready'}`, `${label} up`);
  }

  /** A new gateway process on the same port and env (after the first one was killed). */
  restartGateway(): Promise<void> {
    return this.startGateway('gateway-again', false);
  }

  async startWaker(extraEnv: Record<string, string> = {}): Promise<AppProcess> {
    const waker = this.launch('waker', extraEnv, `${this.options.name}-waker${this.wakers.length}`);
    this.wakers.push(waker);
    await waker.waitForMessage('waker consuming wake jobs', this.profile.startDeadlineMs);
    return waker;
  }

  async startIdleMonitor(extraEnv: Record<string, string> = {}): Promise<AppProcess> {
    const label = `${this.options.name}-idle${this.idleMonitors.length}`;
    const monitor = this.launch('idle-monitor', extraEnv, label);
    this.idleMonitors.push(monitor);
    await monitor.waitForMessage('idle monitor ticking', this.profile.startDeadlineMs);
    return monitor;
  }

  async startProxy(extraEnv: Record<string, string> = {}): Promise<string> {
    const port = await freePort();
    const label = `${this.options.name}-proxy${this.proxies.length}`;
    this.proxies.push(this.launch('inference-proxy', { PROXY_PORT: String(port), ...extraEnv }, label));
    const url = `http://127.0.0.1:${port}`;
    this.proxyUrls.push(url);
    await this.waitUp(`${url}/health/ready`, 'inference proxy up');
    return url;
  }

  /** The shared env, then the app's own launch options, then the caller's extra env. */
  private launch(app: AppName, extraEnv: Record<string, string>, label: string): AppProcess {
    const own = this.options.perApp?.[app] ?? {};
    const env = { ...this.env, ...(own.env ?? {}), ...extraEnv };
    return AppProcess.start(app, env, label, own.nodeArgs, this.options.root);
  }

  private waitUp(url: string, what: string): Promise<true> {
    const up = async () => ((await fetch(url).catch(() => null))?.ok ? true : undefined);
    return eventually<true>(up, this.profile.startDeadlineMs, what);
  }

  /** Stops every process, then deletes the stack's Redis keys (a failed delete is the profile's to report). */
  async stop(): Promise<void> {
    const all = [this.gateway, ...this.wakers, ...this.idleMonitors, ...this.proxies].filter(
      (p): p is AppProcess => p !== null,
    );
    await Promise.all(all.map((p) => p.stop()));
    if (this.sim) await this.sim.stop();
    await this.profile.cleanup(this.prefix);
  }
}
