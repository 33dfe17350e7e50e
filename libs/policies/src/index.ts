export * from './domain/pod';
export * from './domain/gpu';
export * from './domain/activity';
export * from './domain/create';
export * from './wake';
export * from './idle';
export * from './config';
export * from './proxy';
