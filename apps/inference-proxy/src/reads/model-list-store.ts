import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import {
  decodeKeptList,
  encodeKeptList,
  type KeptModelList,
  type PodConfig,
  type PodwardenConfig,
} from '@podwarden/policies';
import { CONFIG, REDIS, REDIS_KEYS, RedisKeys, boundedRead } from '@podwarden/platform';

/**
 * How long a kept list outlives the pod's last listing: it changes only with the volume's model, and a
 * lapsed one would leave a chat UI no model to send the waking request to. Bounds what a removed pod leaves.
 */
export const MODEL_LIST_TTL_SECONDS = 30 * 24 * 60 * 60;

/** The last model list each pod served through any proxy replica, in Redis (`<prefix>:model-list:<pod>`). */
@Injectable()
export class ModelListStore {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(REDIS_KEYS) private readonly keys: RedisKeys,
  ) {}

  /** Null when none is kept (or what is kept is not a list); throws when Redis does not answer in time. */
  async read(pod: PodConfig): Promise<KeptModelList | null> {
    const stored = await boundedRead(
      this.config,
      this.redis.get(this.keys.modelList(pod.name)),
      'model list read',
    );
    return decodeKeptList(stored);
  }

  /** Replaces the kept list and restarts its time to live. */
  async keep(pod: PodConfig, list: KeptModelList): Promise<void> {
    // One command: the connection bounds it (createRedis).
    await this.redis.set(this.keys.modelList(pod.name), encodeKeptList(list), 'EX', MODEL_LIST_TTL_SECONDS);
  }
}
