export * from './create-runpod-client';
