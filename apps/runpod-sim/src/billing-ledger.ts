/**
 * What the simulated account is charged. This is how benchmarks measure money,
 * so the rule is one sentence and the arithmetic is plain.
 */
export const BILLING_RULE =
  'A pod bills its costPerHr (GPU secure price × count) per simulated second from create (PROVISIONING) ' +
  'until it is stopped (EXITED) or terminated, and again from each start until the next stop or terminate; ' +
  'ERROR keeps billing. Simulated seconds are real elapsed milliseconds × speed / 1000.';

interface BilledInterval {
  readonly from: number;
  to: number | null;
}

interface PodAccount {
  readonly podId: string;
  readonly gpuId: string;
  readonly pricePerHour: number;
  readonly intervals: BilledInterval[];
}

export interface PodBill {
  readonly podId: string;
  readonly gpuId: string;
  readonly pricePerHour: number;
  readonly billedSeconds: number;
  readonly usd: number;
  /** True while the pod is accruing. */
  readonly open: boolean;
  /** Simulated epoch milliseconds; `to` null while open. */
  readonly intervals: readonly { readonly from: number; readonly to: number | null }[];
}

export interface BillingReport {
  readonly rule: string;
  readonly pods: readonly PodBill[];
  readonly totalSeconds: number;
  readonly totalUsd: number;
}

export class BillingLedger {
  private readonly accounts = new Map<string, PodAccount>();

  /** Starts accruing; a no-op when the pod is already accruing. */
  open(podId: string, gpuId: string, pricePerHour: number, at: number): void {
    let account = this.accounts.get(podId);
    if (account === undefined) {
      account = { podId, gpuId, pricePerHour, intervals: [] };
      this.accounts.set(podId, account);
    }
    const last = account.intervals.at(-1);
    if (last !== undefined && last.to === null) return;
    account.intervals.push({ from: at, to: null });
  }

  /** Stops accruing; a no-op when the pod is not accruing. */
  close(podId: string, at: number): void {
    const last = this.accounts.get(podId)?.intervals.at(-1);
    if (last !== undefined && last.to === null) last.to = Math.max(last.from, at);
  }

  report(now: number): BillingReport {
    const pods = [...this.accounts.values()].map((account) => bill(account, now));
    return {
      rule: BILLING_RULE,
      pods,
      totalSeconds: roundTo(
        pods.reduce((sum, pod) => sum + pod.billedSeconds, 0),
        3,
      ),
      totalUsd: roundTo(
        pods.reduce((sum, pod) => sum + pod.usd, 0),
        6,
      ),
    };
  }

  totalUsd(now: number): number {
    return this.report(now).totalUsd;
  }

  clear(): void {
    this.accounts.clear();
  }
}

function bill(account: PodAccount, now: number): PodBill {
  const billedMs = account.intervals.reduce(
    (sum, interval) => sum + Math.max(0, (interval.to ?? now) - interval.from),
    0,
  );
  const billedSeconds = billedMs / 1000;
  return {
    podId: account.podId,
    gpuId: account.gpuId,
    pricePerHour: account.pricePerHour,
    billedSeconds: roundTo(billedSeconds, 3),
    usd: roundTo((billedSeconds * account.pricePerHour) / 3600, 6),
    open: account.intervals.at(-1)?.to === null,
    intervals: account.intervals.map((interval) => ({ from: interval.from, to: interval.to })),
  };
}

function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
