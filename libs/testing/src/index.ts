export * from './captured-logs';
export * from './fake-runpod';
export * from './redis-namespace';
export * from './runpod-answers';
export * from './scripted-answers';
export * from './openapi-answers';
export * from './recorded-events';
export * from './test-config';
