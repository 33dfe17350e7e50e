export * from './health.module';
export * from './redis-health.indicator';
export * from './worker-state';
export * from './worker-health.controller';
export * from './worker-health.module';
