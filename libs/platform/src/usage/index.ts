export * from './usage-store';
export * from './rhythm-store';
export * from './usage.module';
