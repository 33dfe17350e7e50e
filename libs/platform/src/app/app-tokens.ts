/** Nest injection tokens shared by every app. */
export const CONFIG = Symbol('PodwardenConfig');
export const LOGGER = Symbol('AppLogger');
export const REDIS = Symbol('Redis');
export const RUNPOD_CLIENT = Symbol('RunPodClient');
export const REDIS_KEYS = Symbol('RedisKeys');
export const RUNPOD_INSIGHTS = Symbol('RunPodInsights');
/** The one wall clock every service reads, in epoch milliseconds: a token, so specs hand in one they move. */
export const CLOCK = Symbol('Clock');
export type Clock = () => number;
