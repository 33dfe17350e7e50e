export * from './idle-state-store';
export * from './keep-alive-store';
export * from './idle.module';
