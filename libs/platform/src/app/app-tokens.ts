/** Nest injection tokens shared by every app. */
export const CONFIG = Symbol('PodwardenConfig');
export const LOGGER = Symbol('AppLogger');
export const REDIS = Symbol('Redis');
export const RUNPOD_CLIENT = Symbol('RunPodClient');
export const REDIS_KEYS = Symbol('RedisKeys');
export const RUNPOD_INSIGHTS = Symbol('RunPodInsights');
/** The wall clock (`() => Date`): a token, so specs hand services a fixed one. */
export const NOW = Symbol('Now');
