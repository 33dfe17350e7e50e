export * from './logger';
export * from './nest-logger';
export * from './redact-text';
