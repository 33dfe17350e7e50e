export * from './activity-classification';
export * from './pod-signal';
export * from './pod-ranking';
export * from './idle-phase';
export * from './baseline-book';
export * from './keep-alive';
export * from './proxy-activity';
