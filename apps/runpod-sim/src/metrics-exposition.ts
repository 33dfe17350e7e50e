import { FINISH_REASONS, VllmSnapshot } from './vllm-process';

/**
 * vLLM's /metrics as Prometheus text exposition, in the shape prometheus_client
 * writes it (floats with a decimal point, `_created` samples on newer
 * versions). Unrelated families — Python GC, process memory, the HTTP
 * instrumentator's own `_total` counter — are there on purpose: a parser must
 * pick the vLLM families by name, not sum whatever ends in `_total`.
 */
export interface ExpositionInput {
  readonly modelName: string;
  readonly snapshot: VllmSnapshot;
  /** phantom-busy: the running gauge never drops below this. */
  readonly runningFloor: number;
  /** false: an old vLLM exposing only the gauges. */
  readonly withCounters: boolean;
  readonly createdSamples: boolean;
  readonly processStartWallSeconds: number;
  /** Metrics scrapes served so far by this pod, for the instrumentator counter. */
  readonly scrapesServed: number;
  /** Model lists served by this process, for the instrumentator counter (no vLLM family moves for them). */
  readonly modelListsServed: number;
}

export function renderVllmMetrics(input: ExpositionInput): string {
  const lines: string[] = [];
  const family = (name: string, type: 'counter' | 'gauge', help: string): void => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  };
  const model = escapeLabel(input.modelName);
  // Newer vLLM labels every series with the engine index; the old gauge-only vLLM does not.
  const labels = input.withCounters ? `engine="0",model_name="${model}"` : `model_name="${model}"`;

  family('python_gc_objects_collected_total', 'counter', 'Objects collected during gc');
  lines.push(
    'python_gc_objects_collected_total{generation="0"} 13872.0',
    'python_gc_objects_collected_total{generation="1"} 2201.0',
    'python_gc_objects_collected_total{generation="2"} 517.0',
  );
  family('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.');
  lines.push(`process_resident_memory_bytes ${float(4123451392)}`);

  family('vllm:num_requests_running', 'gauge', 'Number of requests in model execution batches.');
  lines.push(
    `vllm:num_requests_running{${labels}} ${float(Math.max(input.runningFloor, input.snapshot.running))}`,
  );
  family('vllm:num_requests_waiting', 'gauge', 'Number of requests waiting to be processed.');
  lines.push(`vllm:num_requests_waiting{${labels}} ${float(input.snapshot.waiting)}`);
  family('vllm:gpu_cache_usage_perc', 'gauge', 'GPU KV-cache usage. 1 means 100 percent usage.');
  lines.push(`vllm:gpu_cache_usage_perc{${labels}} ${float(Math.min(1, input.snapshot.running * 0.05))}`);

  if (!input.withCounters) {
    family('vllm:num_requests_swapped', 'gauge', 'Number of requests swapped to CPU.');
    lines.push(`vllm:num_requests_swapped{${labels}} 0.0`);
    family(
      'vllm:avg_generation_throughput_toks_per_s',
      'gauge',
      'Average generation throughput in tokens/s.',
    );
    lines.push(`vllm:avg_generation_throughput_toks_per_s{${labels}} 0.0`);
    return lines.join('\n') + '\n';
  }

  const createdAt = float(input.processStartWallSeconds);
  // prometheus_client writes a counter's `_created` samples as their own gauge family.
  const counter = (name: string, help: string, series: readonly (readonly [string, number])[]): void => {
    family(`${name}_total`, 'counter', help);
    for (const [seriesLabels, value] of series) lines.push(`${name}_total{${seriesLabels}} ${float(value)}`);
    if (!input.createdSamples) return;
    family(`${name}_created`, 'gauge', help);
    for (const [seriesLabels] of series) lines.push(`${name}_created{${seriesLabels}} ${createdAt}`);
  };
  const { counters } = input.snapshot;
  counter('vllm:prompt_tokens', 'Number of prefill tokens processed.', [[labels, counters.promptTokens]]);
  counter('vllm:generation_tokens', 'Number of generation tokens processed.', [
    [labels, counters.generationTokens],
  ]);
  counter(
    'vllm:request_success',
    'Count of successfully processed requests.',
    FINISH_REASONS.map((reason) => [
      `engine="0",finished_reason="${reason}",model_name="${model}"`,
      counters.success[reason],
    ]),
  );
  counter('http_requests', 'Total number of requests by method, status and handler.', [
    ['handler="/metrics",method="GET",status="2xx"', input.scrapesServed],
    ['handler="/v1/models",method="GET",status="2xx"', input.modelListsServed],
  ]);
  return lines.join('\n') + '\n';
}

/**
 * prometheus_client's float format: Python repr (0 → 0.0, 0.25 → 0.25), but
 * Go-style exponents once the integer part has more than 6 digits
 * (4123451392 → 4.123451392e+09), so a parser must accept both.
 */
export function float(value: number): string {
  const repr = Number.isInteger(value) ? `${value}.0` : String(value);
  const dot = repr.indexOf('.');
  if (value > 0 && dot > 6 && !repr.includes('e')) {
    const mantissa = `${repr[0]}.${repr.slice(1, dot)}${repr.slice(dot + 1)}`.replace(/[0.]+$/, '');
    return `${mantissa}e+0${dot - 1}`;
  }
  return repr;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
