import { parseConfig } from './parse-config';
import { keyPrefixFor, readRedisTopology, type RedisTopology } from './redis-topology';

const NO_AUTH = { username: null, password: null, tls: false };

describe(readRedisTopology.name, () => {
  it.each<[string, Record<string, string>, string, RedisTopology]>([
    ['REDIS_URL alone: one server', {}, 'redis://h:6379', { kind: 'standalone', url: 'redis://h:6379' }],
    [
      'REDIS_SENTINELS + REDIS_SENTINEL_NAME: the sentinels, the name, and the URL for auth and db',
      { REDIS_SENTINELS: 's1:26379, s2:26380,10.0.0.3:26381', REDIS_SENTINEL_NAME: 'pw' },
      'rediss://app:s%3Acret@ignored:6379/2',
      {
        kind: 'sentinel',
        sentinels: [
          { host: 's1', port: 26379 },
          { host: 's2', port: 26380 },
          { host: '10.0.0.3', port: 26381 },
        ],
        name: 'pw',
        db: 2,
        auth: { username: 'app', password: 's:cret', tls: true },
      },
    ],
    [
      'a redis+sentinel:// URL',
      {},
      'redis+sentinel://:pw0rd@s1:26379,s2:26379/mymaster/3',
      {
        kind: 'sentinel',
        sentinels: [
          { host: 's1', port: 26379 },
          { host: 's2', port: 26379 },
        ],
        name: 'mymaster',
        db: 3,
        auth: { username: null, password: 'pw0rd', tls: false },
      },
    ],
    [
      'a redis+sentinel:// URL without credentials or db',
      {},
      'redis+sentinel://s1:26379/mymaster',
      { kind: 'sentinel', sentinels: [{ host: 's1', port: 26379 }], name: 'mymaster', db: 0, auth: NO_AUTH },
    ],
    [
      'REDIS_CLUSTER_NODES: the seed nodes, the URL for auth',
      { REDIS_CLUSTER_NODES: 'n1:7000,n2:7001,[::1]:7002' },
      'redis://:pw@ignored:6379',
      {
        kind: 'cluster',
        nodes: [
          { host: 'n1', port: 7000 },
          { host: 'n2', port: 7001 },
          { host: '::1', port: 7002 },
        ],
        auth: { username: null, password: 'pw', tls: false },
      },
    ],
    [
      'blank variables are unset',
      { REDIS_CLUSTER_NODES: ' ', REDIS_SENTINELS: '', REDIS_SENTINEL_NAME: '  ' },
      'redis://h:6379',
      { kind: 'standalone', url: 'redis://h:6379' },
    ],
  ])('%s', (_why, env, url, expected) => {
    expect(readRedisTopology(env, url)).toEqual({ ok: true, value: expected });
  });

  it.each<[string, Record<string, string>, string, string]>([
    [
      'cluster and sentinels at once',
      { REDIS_CLUSTER_NODES: 'n1:7000', REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'pw' },
      'redis://h:6379',
      'REDIS_CLUSTER_NODES and a Sentinel setting are both set; choose one topology',
    ],
    [
      'cluster and a sentinel URL at once',
      { REDIS_CLUSTER_NODES: 'n1:7000' },
      'redis+sentinel://s1:26379/pw',
      'REDIS_CLUSTER_NODES and a Sentinel setting are both set; choose one topology',
    ],
    [
      'cluster and a sentinel name alone',
      { REDIS_CLUSTER_NODES: 'n1:7000', REDIS_SENTINEL_NAME: 'pw' },
      'redis://h:6379',
      'REDIS_CLUSTER_NODES and REDIS_SENTINEL_NAME are both set; choose one topology',
    ],
    [
      'a sentinel URL and REDIS_SENTINELS',
      { REDIS_SENTINELS: 's1:26379' },
      'redis+sentinel://s1:26379/pw',
      'REDIS_URL is a redis+sentinel:// URL and REDIS_SENTINELS is set too; ' +
        'give the sentinels in REDIS_URL or in REDIS_SENTINELS/REDIS_SENTINEL_NAME, not both',
    ],
    [
      'a sentinel URL and REDIS_SENTINEL_NAME',
      { REDIS_SENTINEL_NAME: 'other' },
      'redis+sentinel://s1:26379/pw',
      'REDIS_URL is a redis+sentinel:// URL and REDIS_SENTINEL_NAME is set too; ' +
        'give the sentinels in REDIS_URL or in REDIS_SENTINELS/REDIS_SENTINEL_NAME, not both',
    ],
    [
      'a sentinel URL and both sentinel variables, even when they agree',
      { REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'pw' },
      'redis+sentinel://s1:26379/pw',
      'REDIS_URL is a redis+sentinel:// URL and REDIS_SENTINELS and REDIS_SENTINEL_NAME are set too; ' +
        'give the sentinels in REDIS_URL or in REDIS_SENTINELS/REDIS_SENTINEL_NAME, not both',
    ],
    [
      'sentinels without a name',
      { REDIS_SENTINELS: 's1:26379' },
      'redis://h:6379',
      'REDIS_SENTINELS and REDIS_SENTINEL_NAME must be set together',
    ],
    [
      'a name without sentinels',
      { REDIS_SENTINEL_NAME: 'pw' },
      'redis://h:6379',
      'REDIS_SENTINELS and REDIS_SENTINEL_NAME must be set together',
    ],
    [
      'a node without a port',
      { REDIS_CLUSTER_NODES: 'n1:7000,n2' },
      'redis://h',
      'REDIS_CLUSTER_NODES has "n2", not a host:port',
    ],
    [
      'a port out of range',
      { REDIS_CLUSTER_NODES: 'n1:70000' },
      'redis://h',
      'REDIS_CLUSTER_NODES has "n1:70000", not a host:port',
    ],
    ['only commas', { REDIS_CLUSTER_NODES: ',,' }, 'redis://h', 'REDIS_CLUSTER_NODES lists no host:port'],
    [
      'a sentinel URL without a name',
      {},
      'redis+sentinel://s1:26379',
      'REDIS_URL is not a redis+sentinel://[user:password@]host:port[,host:port]/name[/db] URL',
    ],
  ])('refuses %s', (_why, env, url, error) => {
    expect(readRedisTopology(env, url)).toEqual({ ok: false, error });
  });
});

describe(keyPrefixFor.name, () => {
  it('hash-tags the namespace on a cluster only, so every key of one script (and of one queue) shares a slot', () => {
    expect(keyPrefixFor({ kind: 'cluster', nodes: [], auth: NO_AUTH }, 'podwarden')).toBe('{podwarden}');
    expect(keyPrefixFor({ kind: 'standalone', url: 'redis://h' }, 'podwarden')).toBe('podwarden');
    expect(
      keyPrefixFor({ kind: 'sentinel', sentinels: [], name: 'pw', db: 0, auth: NO_AUTH }, 'podwarden'),
    ).toBe('podwarden');
  });

  it('parseConfig: the cluster prefix is what every key and queue uses; a bad topology stops start-up', () => {
    const cluster = parseConfig({ REDIS_CLUSTER_NODES: 'n1:7000', QUEUE_PREFIX: 'pw-test' }, null);
    expect(cluster.ok && cluster.config.redis.prefix).toBe('{pw-test}');
    const halfSentinel = parseConfig({ REDIS_SENTINEL_NAME: 'pw' }, null);
    expect(halfSentinel).toEqual({
      ok: false,
      error: 'REDIS_SENTINELS and REDIS_SENTINEL_NAME must be set together',
    });
    expect(parseConfig({ REDIS_URL: 'redis://h:6379/abc' }, null)).toEqual({
      ok: false,
      error: 'REDIS_URL has database "abc", not a whole number from 0 to 2147483646',
    });
  });
});
