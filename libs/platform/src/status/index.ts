export * from './volume-reading';
export * from './status-snapshot-store';
export * from './ready-times';
export * from './status-publisher';
export * from './status.module';
