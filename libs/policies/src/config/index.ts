export * from './config-types';
export { DEFAULTS, SECRET_VARIABLES } from './config-defaults';
export type { ConfigVariable } from './config-defaults';
export { parseConfig } from './parse-config';
export type { ConfigResult } from './parse-config';
export { findPod, isPodConfigured, proxyUrlFor } from './pod-lookup';
export { keyPrefixFor, readRedisTopology } from './redis-topology';
export type { RedisAuth, RedisNode, RedisTopology } from './redis-topology';
