import { otlpTracesProtocol } from './otlp-exporter';

describe(otlpTracesProtocol.name, () => {
  it.each([
    [{}, 'http/protobuf'],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, 'http/json'],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: ' http/json ' }, 'http/json'],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }, 'http/protobuf'],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'http/protobuf'],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'HTTP/JSON' }, 'http/protobuf'],
    [
      { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
      'http/json',
    ],
    [
      { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
      'http/protobuf',
    ],
    [{ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: ' ', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, 'http/json'],
  ])('%j → %s', (env, protocol) => {
    expect(otlpTracesProtocol(env)).toBe(protocol);
  });
});
