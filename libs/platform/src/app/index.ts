export * from './app-tokens';
export * from './start-app';
export * from './platform-core.module';
export * from './close-on-signals';
export * from './shutdown-state';
