/**
 * Every control-plane request as the simulator saw it, so a test can assert
 * the exact calls a client made ("exactly one POST /pods"). Headers are never
 * recorded — only whether a bearer was present and whether it matched — so
 * the API key cannot leak through the log. Proxy traffic is counted per pod
 * separately; it also counts requests that carried an Authorization header,
 * because the key must never reach the pod proxy.
 */
export interface ControlPlaneCall {
  readonly seq: number;
  /** Wall-clock ISO time the request arrived. */
  readonly at: string;
  readonly method: string;
  /** Path relative to the /v2 base, e.g. `/pods/abc/action`. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Parsed JSON body; the raw text when it was not JSON; null when empty. */
  readonly body: unknown;
  readonly status: number;
  readonly authorized: boolean;
  readonly bearerPresent: boolean;
  /** The injected fault kind that shaped this answer, if any. */
  readonly fault: string | null;
}

export type ProxyRequestKind = 'metrics' | 'chat' | 'other';

export interface ProxyStats {
  metrics: number;
  chat: number;
  other: number;
  byStatus: Record<string, number>;
  withAuthorization: number;
  lastUserAgent: string | null;
}

export interface CallFilter {
  readonly method?: string;
  readonly path?: string;
}

/** Oldest calls are dropped beyond this, so a long benchmark cannot exhaust memory. */
const MAX_CALLS = 50_000;

export class CallLog {
  private entries: ControlPlaneCall[] = [];
  private nextSeq = 1;
  private proxy = new Map<string, ProxyStats>();
  private heldCount = 0;

  /**
   * Counts a call a delay fault is holding until its answer is logged: the log
   * takes a call when it is answered, so a test that clears the log must first
   * wait for these, or a late call of its previous case lands in its own.
   */
  hold(): () => void {
    this.heldCount += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.heldCount -= 1;
    };
  }

  /** Calls arrived and not yet answered because a delay fault holds them. */
  get held(): number {
    return this.heldCount;
  }

  recordCall(call: Omit<ControlPlaneCall, 'seq'>): void {
    this.entries.push({ seq: this.nextSeq, ...call });
    this.nextSeq += 1;
    if (this.entries.length > MAX_CALLS) this.entries.splice(0, this.entries.length - MAX_CALLS);
  }

  calls(filter: CallFilter = {}): ControlPlaneCall[] {
    return this.entries.filter(
      (call) =>
        (filter.method === undefined || call.method === filter.method.toUpperCase()) &&
        (filter.path === undefined || call.path === filter.path),
    );
  }

  recordProxy(
    podId: string,
    kind: ProxyRequestKind,
    status: number,
    hadAuthorization: boolean,
    userAgent: string | null,
  ): void {
    let stats = this.proxy.get(podId);
    if (stats === undefined) {
      stats = { metrics: 0, chat: 0, other: 0, byStatus: {}, withAuthorization: 0, lastUserAgent: null };
      this.proxy.set(podId, stats);
    }
    stats[kind] += 1;
    stats.byStatus[String(status)] = (stats.byStatus[String(status)] ?? 0) + 1;
    if (hadAuthorization) stats.withAuthorization += 1;
    stats.lastUserAgent = userAgent;
  }

  proxyCount(podId: string, kind: ProxyRequestKind): number {
    return this.proxy.get(podId)?.[kind] ?? 0;
  }

  proxyStats(): Record<string, ProxyStats> {
    return Object.fromEntries(
      [...this.proxy.entries()].map(([podId, stats]) => [podId, structuredClone(stats)]),
    );
  }

  clear(): void {
    this.entries = [];
    this.proxy = new Map();
  }
}
