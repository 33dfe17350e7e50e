export * from './proxy-headers';
export * from './cold-request';
