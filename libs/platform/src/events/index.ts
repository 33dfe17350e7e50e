export * from './pod-event';
export * from './pod-event-publisher';
export * from './pod-event-reader';
export * from './pod-event-tail';
export * from './events.module';
