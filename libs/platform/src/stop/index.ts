export * from './stop-service';
export * from './pending-stop-store';
export * from './stop.module';
export type { StopActionCounter } from './stop-path-terminator';
export { stopPathIntent } from './stop-intent-log';
