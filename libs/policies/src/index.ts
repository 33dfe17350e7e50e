export * from './domain/pod';
export * from './domain/gpu';
export * from './domain/activity';
export * from './domain/create';
