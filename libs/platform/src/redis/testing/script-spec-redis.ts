import type Redis from 'ioredis';
import { connectTestRedis, deleteKeysUnder, uniqueTestPrefix } from '@podwarden/testing';

/** What a script's spec works with: its own key prefix on the real Redis, and connections to race on. */
export interface ScriptSpecRedis {
  /** The spec's main connection. */
  readonly redis: () => Redis;
  /** `count` connections of their own, so their scripts really interleave at the server. */
  readonly writers: (count: number) => Redis[];
  /** A key under the spec's prefix (tests name their keys apart). */
  readonly key: (name: string) => string;
}

/** Registers the hooks: connect before all, and after all delete the prefix and close every connection. */
export function useScriptSpecRedis(name: string): ScriptSpecRedis {
  const prefix = uniqueTestPrefix(`script-${name}`);
  const opened: Redis[] = [];
  let main: Redis;
  beforeAll(() => {
    main = connectTestRedis();
  });
  afterAll(async () => {
    await deleteKeysUnder(main, prefix);
    await Promise.all([main, ...opened.splice(0)].map((r) => r.quit()));
  });
  return {
    redis: () => main,
    writers: (count) => {
      const made = Array.from({ length: count }, () => connectTestRedis());
      opened.push(...made);
      return made;
    },
    key: (key) => `${prefix}:${key}`,
  };
}
