export * from './tracing';
export * from './redacting-exporter';
export * from './http-tracing.middleware';
