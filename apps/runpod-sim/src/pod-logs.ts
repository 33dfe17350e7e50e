import { Lifecycle } from './pod-lifecycle';

/**
 * A pod's system (host lifecycle: pull, start, exit) and container (stdout)
 * logs, derived from its lifecycle stamps like everything else here, so a
 * fake clock makes them deterministic. The scenario picks the story the logs
 * tell while the pod boots.
 */
export const LOG_SCENARIOS = ['normal', 'cold-pull', 'restart-loop', 'app-crash'] as const;
export type LogScenario = (typeof LOG_SCENARIOS)[number];

export interface SimLogLine {
  readonly source: 'system' | 'container';
  readonly line: string;
  /** Simulated epoch ms. */
  readonly ts: number;
}

export interface LogSubject {
  readonly id: string;
  readonly imageName: string;
  readonly lifecycle: Lifecycle;
  readonly logScenario: LogScenario;
}

/** A cold pull reports progress this often; a restart loop restarts this often (simulated ms). */
export const PULL_PROGRESS_MS = 20_000;
export const RESTART_EVERY_MS = 60_000;
/** The secret-shaped line a careless template prints on a restart loop's first start (for redaction). */
export const LEAKED_HF_TOKEN = 'hf_SimLeakedToken0123456789abcdef';
export const PRINTED_SECRET_LINE = `env: HF_TOKEN=${LEAKED_HF_TOKEN} OPENAI_API_KEY=sk-simleaked0123456789abcdef`;
const MAX_GENERATED = 5000;

/** Every line the pod has logged up to `now`, oldest first (at most 5000). */
export function podLogLines(pod: LogSubject, now: number): SimLogLine[] {
  const life = pod.lifecycle;
  if (life.kind !== 'run') return [];
  const lines: SimLogLine[] = [];
  const sys = (ts: number, line: string) => lines.push({ source: 'system', line, ts });
  const app = (ts: number, line: string) => lines.push({ source: 'container', line, ts });
  const begin = life.startedAt;
  sys(begin, `create container ${pod.id} from ${pod.imageName}`);
  switch (pod.logScenario) {
    case 'cold-pull':
      sys(begin, `pulling image ${pod.imageName}`);
      for (
        let t = begin + PULL_PROGRESS_MS, k = 1;
        t <= now && lines.length < MAX_GENERATED;
        t += PULL_PROGRESS_MS, k++
      ) {
        sys(t, `Downloading layer ${(k % 40) + 1}/40 [${'='.repeat(k % 20)}>] ${(k * 0.4).toFixed(1)} GB`);
      }
      break;
    case 'restart-loop':
      for (
        let t = life.startingAt, k = 1;
        t <= now && lines.length < MAX_GENERATED;
        t += RESTART_EVERY_MS, k++
      ) {
        sys(t, `start container ${pod.id}: begin`);
        if (k === 1) app(t + 1000, PRINTED_SECRET_LINE);
        // The same early error every start; a careless entrypoint echoes its token in it.
        app(
          t + 2000,
          `PermissionError: [Errno 13] Permission denied: '/workspace/.cache/huggingface/hub' (login with HF_TOKEN=${LEAKED_HF_TOKEN})`,
        );
        sys(t + 3000, `container ${pod.id} exited with code 1; restarting`);
      }
      break;
    case 'app-crash':
      sys(life.startingAt, `start container ${pod.id}: begin`);
      app(life.runningAt, 'INFO Starting vLLM API server on http://0.0.0.0:8000');
      app(life.attachedAt, 'INFO Loading model weights from /workspace/models');
      app(life.attachedAt + 5000, 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 GiB');
      sys(life.attachedAt + 6000, `container ${pod.id} exited with code 1`);
      break;
    case 'normal':
      if (life.origin === 'create') sys(begin, `pulling image ${pod.imageName}`);
      sys(life.startingAt, `start container ${pod.id}: begin`);
      app(life.runningAt, 'INFO Starting vLLM API server on http://0.0.0.0:8000');
      app(life.attachedAt, 'INFO Loading model weights from /workspace/models');
      app(life.readyAt, 'INFO Application startup complete. Uvicorn running on http://0.0.0.0:8000');
      break;
  }
  return lines.filter((line) => line.ts <= now).sort((a, b) => a.ts - b.ts);
}

/** One server-sent event: the id is the line's timestamp (RunPod's resume cursor). */
export function logEvent(line: SimLogLine): string {
  const ts = new Date(line.ts).toISOString();
  return `id: ${ts}\ndata: ${JSON.stringify({ source: line.source, line: line.line, ts })}\n\n`;
}
