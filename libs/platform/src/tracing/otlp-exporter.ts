import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as OtlpProto from '@opentelemetry/exporter-trace-otlp-proto';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

export type OtlpTracesProtocol = 'http/json' | 'http/protobuf';

/**
 * The protocol the standard variables ask for, the traces-specific one first.
 * Anything but http/json gets http/protobuf, OTLP's default (grpc is not bundled).
 */
export function otlpTracesProtocol(env: NodeJS.ProcessEnv): OtlpTracesProtocol {
  const asked = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim();
  return asked === 'http/json' ? 'http/json' : 'http/protobuf';
}

/** The OTLP exporter for that protocol; it reads the endpoint and headers from the standard variables itself. */
export function otlpTraceExporter(env: NodeJS.ProcessEnv): SpanExporter {
  // Required here, not at the top: an app with tracing off never loads an exporter (see startTracing).
  /* eslint-disable @typescript-eslint/no-require-imports */
  if (otlpTracesProtocol(env) === 'http/json') {
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp;
    return new OTLPTraceExporter();
  }
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-proto') as typeof OtlpProto;
  return new OTLPTraceExporter();
  /* eslint-enable @typescript-eslint/no-require-imports */
}
