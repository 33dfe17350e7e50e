export * from './error-message';
export * from './within-timeout';
export * from './or-warn';
