export * from './shutdown-deadline';
export * from './tick-freshness';
