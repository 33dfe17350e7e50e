export * from './proxy-headers';
export * from './cold-request';
export * from './shed-estimate';
export * from './request-kind';
export * from './model-list';
