import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
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
  return otlpTracesProtocol(env) === 'http/json'
    ? new OtlpJsonTraceExporter()
    : new OtlpProtobufTraceExporter();
}
