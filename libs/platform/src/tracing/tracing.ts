import type * as UndiciOtel from '@opentelemetry/instrumentation-undici';
import type * as SdkNode from '@opentelemetry/sdk-node';
import type * as SdkTraceBase from '@opentelemetry/sdk-trace-base';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { BullMQOtel } from 'bullmq-otel';
import { otlpTraceExporter } from './otlp-exporter';
import { RedactingSpanExporter } from './redacting-exporter';
import { withinTimeout } from '../util/within-timeout';

export interface Tracing {
  /** Flushes what is buffered and stops; called after the app has closed. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Tests: export to this (e.g. an in-memory exporter), span by span, instead of OTLP. */
  readonly exporter?: SpanExporter;
}

/** The secrets a span must never carry, from the environment every app reads. */
function secretsOf(env: NodeJS.ProcessEnv): Array<string | undefined> {
  return [env.RUNPOD_API_KEY, env.RIG_OPERATOR_TOKEN, env.RIG_WAKE_TOKEN, env.RIG_INFERENCE_TOKEN].map((s) =>
    s?.trim(),
  );
}

/**
 * OpenTelemetry for one app: HTTP requests, BullMQ jobs (context carried producer to worker), RunPod calls.
 * Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (the exporter reads it and the other OTEL_* variables);
 * every span goes through the redacting exporter first.
 */
export function startTracing(app: string, options: TracingOptions = {}): Tracing | null {
  const env = options.env ?? process.env;
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ?? '';
  if (options.exporter === undefined && endpoint === '') return null;
  // Loaded only when tracing is on: the SDK and the OTLP exporters hold some 30 MB of RSS (12 MB of
  // heap) in every process that merely imports them (docs/benchmarks.md, memory).
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici') as typeof UndiciOtel;
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof SdkNode;
  const { BatchSpanProcessor, SimpleSpanProcessor } =
    require('@opentelemetry/sdk-trace-base') as typeof SdkTraceBase;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const processor: SpanProcessor =
    options.exporter === undefined
      ? new BatchSpanProcessor(new RedactingSpanExporter(otlpTraceExporter(env), secretsOf(env)))
      : new SimpleSpanProcessor(new RedactingSpanExporter(options.exporter, secretsOf(env)));
  // No header is ever recorded: the control plane's carries the API key.
  const undici = new UndiciInstrumentation({ headersToSpanAttributes: {} });
  const sdk = new NodeSDK({
    serviceName: `podwarden-${app}`,
    spanProcessors: [processor],
    instrumentations: [undici],
  });
  sdk.start();
  return {
    // The SDK's shutdown leaves the instrumentation subscribed to undici's
    // diagnostics channels, which outlive it: later requests would still reach it.
    shutdown: async () => {
      await sdk.shutdown();
      undici.disable();
    },
  };
}

/** BullMQ's telemetry: a no-op until a tracer provider is registered (startTracing). */
export function queueTelemetry(): BullMQOtel {
  return new BullMQOtel({ tracerName: 'podwarden-bullmq' });
}

interface Closable {
  close(): Promise<void>;
}

/** The app, then its tracing: the last spans are flushed, for at most two seconds, once the app has closed. */
export function closingWith(app: Closable, tracing: Tracing | null): Closable {
  return {
    close: async () => {
      await app.close();
      if (tracing !== null)
        await withinTimeout(tracing.shutdown(), 2000, 'trace flush').catch(() => undefined);
    },
  };
}
