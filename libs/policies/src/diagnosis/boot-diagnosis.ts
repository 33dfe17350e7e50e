/**
 * Why a boot is not ready, from several signals at once (control plane, system log, container log, boot
 * time): no one signal tells a cold pull from a restart loop, provider lag or an application crash.
 */
export type BootDiagnosisKind =
  'cold-pull' | 'restart-loop' | 'control-plane-lag' | 'application-failure' | 'unknown';

export interface BootLogLine {
  readonly source: 'system' | 'container';
  /** Already redacted. */
  readonly line: string;
  /** Epoch ms of the line; null when RunPod gave none we could read. */
  readonly ts: number | null;
}

export type BootLogTail =
  | { readonly kind: 'read'; readonly lines: readonly BootLogLine[] }
  | { readonly kind: 'unreadable'; readonly reason: string };

export interface BootSignals {
  readonly logs: BootLogTail;
  /** The pod's status as the control plane reports it, and whether it reports a runtime. */
  readonly status: string | null;
  readonly hasRuntime: boolean;
}

export interface BootDiagnosis {
  readonly kind: BootDiagnosisKind;
  /** The lines that decided it (bounded), newest last. */
  readonly evidence: readonly string[];
  /** One sentence for logs, the wake's reason and the console. */
  readonly summary: string;
}

/** A restart loop is only confirmed over at least this long: a couple of quick restarts are not one. */
export const RESTART_LOOP_MIN_SPAN_MS = 3 * 60_000;
/** Start events that make a cadence. */
export const RESTART_LOOP_MIN_STARTS = 3;
const MAX_EVIDENCE = 6;
const MAX_EVIDENCE_CHARS = 300;

const START = /\bstart(?:ing)? container\b|\bcontainer start(?:ed)?\b/i;
const PULL = /\bpull(?:ing)?\b|\bdownload(?:ing|ed)?\b|\bextract(?:ing)?\b|\blayer\b/i;
const FAILURE =
  /\b(?:error|exception|traceback|fatal|panic|killed|segmentation fault|permission denied|out of memory|no such file)\b/i;
/** A Python exception line (`ValueError: …`, `torch.cuda.OutOfMemoryError`): case-sensitive, so `errors=0` is not. */
const PYTHON_EXCEPTION = /\b_*[A-Z]\w*(?:Error|Exception)(?::|\s*$)/;

/** Classifies a boot from its signals; evidence lines are those that decided it. */
export function diagnoseBoot(signals: BootSignals): BootDiagnosis {
  if (signals.logs.kind === 'unreadable') {
    return verdict('unknown', [`logs unreadable: ${signals.logs.reason}`], 'the pod logs could not be read');
  }
  const lines = signals.logs.lines;
  const system = lines.filter((l) => l.source === 'system');
  const container = lines.filter((l) => l.source === 'container');
  const starts = system.filter((l) => START.test(l.line));
  const failures = container.filter((l) => FAILURE.test(l.line) || PYTHON_EXCEPTION.test(l.line));

  if (starts.length >= RESTART_LOOP_MIN_STARTS) {
    const repeated = repeatedFailure(failures);
    const span = spanMs(starts);
    if (repeated !== null && span !== null && span >= RESTART_LOOP_MIN_SPAN_MS) {
      const minutes = Math.floor(span / 60_000);
      return verdict(
        'restart-loop',
        [starts[0].line, starts[starts.length - 1].line, repeated.line],
        `restart loop: ${starts.length} container starts over ${minutes} min, each failing with the same early error`,
      );
    }
  }
  if (failures.length > 0 && starts.length < RESTART_LOOP_MIN_STARTS) {
    return verdict(
      'application-failure',
      failures.slice(-3).map((l) => l.line),
      'the application failed after its container started',
    );
  }
  const controlPlaneUp = signals.status?.toUpperCase() === 'RUNNING' && signals.hasRuntime;
  if (!controlPlaneUp && container.length > 0 && failures.length === 0) {
    return verdict(
      'control-plane-lag',
      container.slice(-3).map((l) => l.line),
      `the container is making progress while the control plane still reports ${signals.status ?? 'no status'} without a runtime`,
    );
  }
  const pulls = system.filter((l) => PULL.test(l.line));
  if (pulls.length > 0 && container.length === 0 && starts.length <= 1) {
    return verdict(
      'cold-pull',
      pulls.slice(-2).map((l) => l.line),
      'the image is still being pulled (no restarts, no application output yet)',
    );
  }
  const why =
    starts.length >= RESTART_LOOP_MIN_STARTS
      ? 'repeated starts not (yet) confirmed as a loop'
      : 'no signal decides it';
  return verdict(
    'unknown',
    lines.slice(-3).map((l) => l.line),
    why,
  );
}

/** A diagnosed restart loop of a pod this system started or created is stopped at once; nothing else is. */
export function stopsEarly(diagnosis: BootDiagnosis, startedByUs: boolean): boolean {
  return startedByUs && diagnosis.kind === 'restart-loop';
}

export interface DiagnoseWhen {
  readonly booting: boolean;
  readonly bootingTicks: number;
  /** Booting ticks before a boot is diagnosed; 0 disables diagnosis. */
  readonly afterTicks: number;
  /** The boot grace stop falls due this tick (not ready in time). */
  readonly bootGraceDue: boolean;
  /** A pod on the volume reads ERROR. */
  readonly inError: boolean;
}

/** When a boot is worth diagnosing: not ready in time, ERROR, or booting for several ticks. */
export function shouldDiagnose(when: DiagnoseWhen): boolean {
  if (when.afterTicks <= 0) return false;
  return when.bootGraceDue || when.inError || (when.booting && when.bootingTicks >= when.afterTicks);
}

function repeatedFailure(failures: readonly BootLogLine[]): BootLogLine | null {
  const counts = new Map<string, number>();
  for (const failure of failures) {
    const key = normalised(failure.line);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const repeated = [...failures]
    .reverse()
    .find((failure) => (counts.get(normalised(failure.line)) ?? 0) >= 2);
  return repeated ?? null;
}

/** The same error across restarts differs only by times, counters and addresses. */
function normalised(line: string): string {
  return line
    .replace(/0x[0-9a-f]+/gi, '#')
    .replace(/\d+/g, '#')
    .trim()
    .toLowerCase();
}

function spanMs(lines: readonly BootLogLine[]): number | null {
  const times = lines.map((l) => l.ts).filter((ts): ts is number => ts !== null);
  return times.length < 2 ? null : Math.max(...times) - Math.min(...times);
}

function verdict(kind: BootDiagnosisKind, evidence: readonly string[], summary: string): BootDiagnosis {
  const bounded = evidence.slice(-MAX_EVIDENCE).map((line) => line.slice(0, MAX_EVIDENCE_CHARS));
  return { kind, evidence: bounded, summary };
}
