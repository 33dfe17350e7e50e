// The platform's public surface: each folder is one concern, and its index says what it offers (its Nest
// module among it, where it has one).
export * from './app';
export * from './config';
export * from './logging';
export * from './redis';
export * from './runpod';
export * from './metrics';
export * from './tracing';
export * from './health';
export * from './queues';
export * from './records';
export * from './status';
export * from './wake';
export * from './idle';
export * from './stop';
export * from './budget';
export * from './events';
export * from './proxy';
export * from './usage';
export * from './billing';
export * from './diagnosis';
export * from './concurrency';
export * from './util';
