export * from './shutdown-deadline';
export * from './tick-freshness';
export * from './tick-scheduler-check';
