export * from './wake-decision';
export * from './termination-guard';
export * from './gpu-selection';
export * from './create-walk';
export * from './last-wake';
export * from './volume-lookup';
export * from './realised-contract';
export * from './created-pod-verdict';
