import { readRedisTopology, type RedisAuth, type RedisNode, type RedisTopology } from './redis-topology';

const NO_AUTH: RedisAuth = { username: null, password: null, tls: false };
const URL_ERROR = 'REDIS_URL is not a redis:// or rediss:// URL with a host';
const SENTINEL_URL_ERROR =
  'REDIS_URL is not a redis+sentinel://[user:password@]host:port[,host:port]/name[/db] URL';
const TOGETHER = 'REDIS_SENTINELS and REDIS_SENTINEL_NAME must be set together';
const badDb = (quoted: string): string =>
  `REDIS_URL has database ${quoted}, not a whole number from 0 to 2147483646`;

const sentinelsOf = (sentinels: RedisNode[], name: string, db: number, auth: RedisAuth): RedisTopology => ({
  kind: 'sentinel',
  sentinels,
  name,
  db,
  auth,
});
const S1 = [{ host: 's1', port: 26379 }];

describe('redis topology: host:port lists', () => {
  // Through REDIS_CLUSTER_NODES, the list every topology's nodes are read with.
  it.each<[string, string, RedisNode[]]>([
    ['the lowest port', 'n1:1', [{ host: 'n1', port: 1 }]],
    ['the highest port', 'n1:65535', [{ host: 'n1', port: 65535 }]],
    [
      'every host character: letters, digits, dot, underscore, dash',
      'Az.a_Z-09:7000',
      [{ host: 'Az.a_Z-09', port: 7000 }],
    ],
    [
      'an IPv6 host in brackets, brackets dropped',
      '[0:9:a:f:A:F::]:7000',
      [{ host: '0:9:a:f:A:F::', port: 7000 }],
    ],
    [
      'spaces and empty items around commas',
      ' n1:7000 ,, n2:7001 ,',
      [
        { host: 'n1', port: 7000 },
        { host: 'n2', port: 7001 },
      ],
    ],
  ])('reads %s', (_why, text, nodes) => {
    expect(readRedisTopology({ REDIS_CLUSTER_NODES: text }, 'redis://h')).toEqual({
      ok: true,
      value: { kind: 'cluster', nodes, auth: NO_AUTH },
    });
  });

  // The bad item is quoted; the items before it do not rescue the list.
  it.each<[string, string, string]>([
    ['port 0', 'n1:7000,n1:0', '"n1:0"'],
    ['one past the highest port', 'n1:65536', '"n1:65536"'],
    ['six digits, even for a port in range', 'n1:000080', '"n1:000080"'],
    ['no host', ':7000', '":7000"'],
    ['a character no host has', 'bad/n1:7000', '"bad/n1:7000"'],
    ['anything after the port', 'n1:7000x', '"n1:7000x"'],
    ['a non-digit port', 'n1:70a0', '"n1:70a0"'],
    ['an IPv6 host without brackets', '::1:7000', '"::1:7000"'],
    ['a bracketed host that is not hex', '[g::1]:7000', '"[g::1]:7000"'],
  ])('refuses %s', (_why, text, quoted) => {
    expect(readRedisTopology({ REDIS_CLUSTER_NODES: text }, 'redis://h')).toEqual({
      ok: false,
      error: `REDIS_CLUSTER_NODES has ${quoted}, not a host:port`,
    });
  });
});

describe('redis topology: auth from REDIS_URL', () => {
  it.each<[string, string, RedisAuth]>([
    ['no user info, plain redis', 'redis://h:6379', NO_AUTH],
    ['a user without a password', 'redis://app@h:6379', { username: 'app', password: null, tls: false }],
    ['a password without a user', 'redis://:pw@h:6379', { username: null, password: 'pw', tls: false }],
    [
      'both, decoded, over TLS',
      'rediss://a%40b:p%3Aw@h:6379',
      { username: 'a@b', password: 'p:w', tls: true },
    ],
  ])('cluster: %s', (_why, url, auth) => {
    expect(readRedisTopology({ REDIS_CLUSTER_NODES: 'n1:7000' }, url)).toEqual({
      ok: true,
      value: { kind: 'cluster', nodes: [{ host: 'n1', port: 7000 }], auth },
    });
  });

  const MODES: [string, Record<string, string>][] = [
    ['standalone', {}],
    ['cluster', { REDIS_CLUSTER_NODES: 'n1:7000' }],
    ['sentinels', { REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'pw' }],
  ];

  // The message says "with a host": a URL that parses but names no host, or another scheme, is refused too.
  it.each<[string, Record<string, string>, string]>(
    MODES.flatMap(([mode, env]) => [
      [`${mode}, no URL at all`, env, 'not a url'],
      [`${mode}, no host after //`, env, 'redis:///0'],
      [`${mode}, no // at all`, env, 'redis:3/'],
      [`${mode}, another scheme`, env, 'http://h:6379'],
    ]),
  )('%s: refused', (_why, env, url) => {
    expect(readRedisTopology(env, url)).toEqual({ ok: false, error: URL_ERROR });
  });

  // ioredis would read "/abc" as no database (0) and "/3/x" as 3: a bad path is refused in every mode.
  it.each<[string, Record<string, string>, string, string]>(
    MODES.flatMap(([mode, env]) => [
      [`${mode}, a word`, env, 'redis://h:6379/abc', '"abc"'],
      [`${mode}, a negative number`, env, 'redis://h/-1', '"-1"'],
      [`${mode}, a fraction`, env, 'redis://h/2.5', '"2.5"'],
      [`${mode}, past the highest index Redis allows`, env, 'redis://h/2147483647', '"2147483647"'],
      [`${mode}, far past it`, env, 'redis://h/99999999999', '"99999999999"'],
      [`${mode}, a segment after the db`, env, 'redis://h/3/x', '"3/x"'],
      [`${mode}, two slashes`, env, 'redis://h//', '"/"'],
    ]),
  )('%s: a bad database is refused, quoted', (_why, env, url, quoted) => {
    expect(readRedisTopology(env, url)).toEqual({ ok: false, error: badDb(quoted) });
  });

  // A cluster has only database 0 and refuses SELECT: a database in the URL would be dropped silently.
  it.each<[string, string, number]>([
    ['db 3', 'redis://h:6379/3', 3],
    ['db 1 with a trailing slash', 'redis://h:6379/1/', 1],
  ])('cluster, %s: refused', (_why, url, db) => {
    expect(readRedisTopology({ REDIS_CLUSTER_NODES: 'n1:7000' }, url)).toEqual({
      ok: false,
      error: `REDIS_URL selects database ${db}, but a Redis Cluster has only database 0`,
    });
  });

  it.each<[string, string]>([
    ['db 0', 'redis://h:6379/0'],
    ['a lone slash', 'redis://h:6379/'],
  ])('cluster, %s: accepted', (_why, url) => {
    expect(readRedisTopology({ REDIS_CLUSTER_NODES: 'n1:7000' }, url)).toEqual({
      ok: true,
      value: { kind: 'cluster', nodes: [{ host: 'n1', port: 7000 }], auth: NO_AUTH },
    });
  });

  it('a bad database holding "@" is not quoted: it may be the tail of a password with a raw "/"', () => {
    expect(readRedisTopology({}, 'redis://u:123/s3cret@h:6379')).toEqual({
      ok: false,
      error: 'REDIS_URL has database, not a whole number from 0 to 2147483646',
    });
  });

  it.each<[string, string]>([
    ['no path', 'redis://h:6379'],
    ['a lone slash', 'redis://h:6379/'],
    ['a db with a trailing slash', 'redis://h:6379/3/'],
    ['a two-digit db with a trailing slash', 'redis://h:6379/12/'],
    ['the highest index', 'rediss://h/2147483646'],
  ])('standalone, %s: the URL is kept as given', (_why, url) => {
    expect(readRedisTopology({}, url)).toEqual({ ok: true, value: { kind: 'standalone', url } });
  });
});

describe('redis topology: sentinels from the environment', () => {
  it.each<[string, Record<string, string>, string, RedisTopology]>([
    [
      'the name is trimmed',
      { REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: '  pw \n' },
      'redis://h',
      sentinelsOf(S1, 'pw', 0, NO_AUTH),
    ],
    [
      'db from the URL path',
      { REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'pw' },
      'redis://h/7',
      sentinelsOf(S1, 'pw', 7, NO_AUTH),
    ],
    [
      'db 0 spelled out',
      { REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'pw' },
      'redis://h/0',
      sentinelsOf(S1, 'pw', 0, NO_AUTH),
    ],
    [
      'a lone slash is db 0',
      { REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'pw' },
      'redis://h/',
      sentinelsOf(S1, 'pw', 0, NO_AUTH),
    ],
    [
      'a db with a trailing slash',
      { REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'pw' },
      'redis://h/7/',
      sentinelsOf(S1, 'pw', 7, NO_AUTH),
    ],
    [
      'leading zeros',
      { REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'pw' },
      'redis://h/007',
      sentinelsOf(S1, 'pw', 7, NO_AUTH),
    ],
    [
      'the highest index Redis allows',
      { REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'pw' },
      'redis://h/2147483646',
      sentinelsOf(S1, 'pw', 2147483646, NO_AUTH),
    ],
  ])('%s', (_why, env, url, expected) => {
    expect(readRedisTopology(env, url)).toEqual({ ok: true, value: expected });
  });

  it.each<[string, Record<string, string>, string]>([
    [
      'a bad sentinel',
      { REDIS_SENTINELS: 's1:26379,s2', REDIS_SENTINEL_NAME: 'pw' },
      'REDIS_SENTINELS has "s2", not a host:port',
    ],
    [
      'no sentinel in the list',
      { REDIS_SENTINELS: ' , ', REDIS_SENTINEL_NAME: 'pw' },
      'REDIS_SENTINELS lists no host:port',
    ],
    ['a blank name with sentinels', { REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: ' ' }, TOGETHER],
  ])('refuses %s', (_why, env, error) => {
    expect(readRedisTopology(env, 'redis://h')).toEqual({ ok: false, error });
  });
});

describe('redis topology: a redis+sentinel:// URL', () => {
  it.each<[string, string, RedisTopology]>([
    [
      'a trailing slash after the name',
      'redis+sentinel://s1:26379/mymaster/',
      sentinelsOf(S1, 'mymaster', 0, NO_AUTH),
    ],
    [
      'a trailing slash after the db',
      'redis+sentinel://s1:26379/mymaster/3/',
      sentinelsOf(S1, 'mymaster', 3, NO_AUTH),
    ],
    [
      'a db of several digits',
      'redis+sentinel://s1:26379/mymaster/12',
      sentinelsOf(S1, 'mymaster', 12, NO_AUTH),
    ],
    [
      'the highest db index',
      'redis+sentinel://s1:26379/mymaster/2147483646',
      sentinelsOf(S1, 'mymaster', 2147483646, NO_AUTH),
    ],
    [
      'an encoded name, decoded',
      'redis+sentinel://s1:26379/my%20master',
      sentinelsOf(S1, 'my master', 0, NO_AUTH),
    ],
    [
      'an empty user info is no credentials',
      'redis+sentinel://@s1:26379/m',
      sentinelsOf(S1, 'm', 0, NO_AUTH),
    ],
    [
      'a user alone',
      'redis+sentinel://app@s1:26379/m',
      sentinelsOf(S1, 'm', 0, { username: 'app', password: null, tls: false }),
    ],
    [
      'a user and an empty password',
      'redis+sentinel://app:@s1:26379/m',
      sentinelsOf(S1, 'm', 0, { username: 'app', password: null, tls: false }),
    ],
    [
      'a user and a password, decoded; the password may hold a colon',
      'redis+sentinel://a%40b:p%3Aw:x@s1:26379/m',
      sentinelsOf(S1, 'm', 0, { username: 'a@b', password: 'p:w:x', tls: false }),
    ],
    [
      'an IPv6 sentinel',
      'redis+sentinel://[::1]:26379,s2:26380/m',
      sentinelsOf(
        [
          { host: '::1', port: 26379 },
          { host: 's2', port: 26380 },
        ],
        'm',
        0,
        NO_AUTH,
      ),
    ],
  ])('%s', (_why, url, expected) => {
    expect(readRedisTopology({}, url)).toEqual({ ok: true, value: expected });
  });

  it.each<[string, string, string]>([
    ['a segment after the db', 'redis+sentinel://s1:26379/m/3/x', SENTINEL_URL_ERROR],
    ['a db that is no number', 'redis+sentinel://s1:26379/m/x', SENTINEL_URL_ERROR],
    ['a negative db', 'redis+sentinel://s1:26379/m/-1', SENTINEL_URL_ERROR],
    ['a db past the highest index', 'redis+sentinel://s1:26379/m/99999999999', badDb('"99999999999"')],
    ['no host', 'redis+sentinel:///m', SENTINEL_URL_ERROR],
    ['a bad sentinel, quoted', 'redis+sentinel://s1:26379,s2/m', 'REDIS_URL has "s2", not a host:port'],
    ['no sentinel', 'redis+sentinel://,/m', 'REDIS_URL lists no host:port'],
    // A slash in the credentials must be percent-encoded; a raw one ends the host list.
    ['a raw slash in the credentials', 'redis+sentinel://a/b@s1:26379/m', SENTINEL_URL_ERROR],
  ])('refuses %s', (_why, url, error) => {
    expect(readRedisTopology({}, url)).toEqual({ ok: false, error });
  });
});
