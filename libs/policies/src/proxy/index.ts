export * from './proxy-headers';
export * from './cold-request';
export * from './shed-estimate';
