export * from './podwarden-metrics';
export * from './worker-metrics';
