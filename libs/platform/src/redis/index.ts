export * from './redis-connection';
export * from './bounded-read';
export * from './redis-keys';
export * from './redis-clock';
