import { Checked, failed, passed } from './checked';
import { quoteConfigValue } from './quote-config-value';
import { readSetText, splitList, type Environment } from './read-environment';

export interface RedisNode {
  readonly host: string;
  readonly port: number;
}

/** Credentials and transport of the data nodes, from REDIS_URL's user info and scheme. */
export interface RedisAuth {
  readonly username: string | null;
  /** A secret: never log it. */
  readonly password: string | null;
  readonly tls: boolean;
}

/** Which Redis the apps share, and how to reach it. */
export type RedisTopology =
  | { readonly kind: 'standalone'; readonly url: string }
  | {
      readonly kind: 'sentinel';
      readonly sentinels: readonly RedisNode[];
      /** The primary's name the sentinels monitor. */
      readonly name: string;
      readonly db: number;
      readonly auth: RedisAuth;
    }
  | { readonly kind: 'cluster'; readonly nodes: readonly RedisNode[]; readonly auth: RedisAuth };

const SENTINEL_SCHEME = 'redis+sentinel:';
/** Redis allows at most INT_MAX databases, so this is the highest index SELECT can take. */
const MAX_DB = 2_147_483_646;

/**
 * The topology from REDIS_URL, REDIS_SENTINELS/REDIS_SENTINEL_NAME and REDIS_CLUSTER_NODES: cluster nodes
 * win over sentinels, sentinels over the URL's host. Anything half-set, set twice or malformed is an error:
 * guessing a topology could point several replicas at different Redis servers.
 */
export function readRedisTopology(env: Environment, url: string): Checked<RedisTopology> {
  const clusterText = readSetText(env, 'REDIS_CLUSTER_NODES');
  const sentinelsText = readSetText(env, 'REDIS_SENTINELS');
  const nameText = readSetText(env, 'REDIS_SENTINEL_NAME')?.trim() ?? null;
  const sentinelScheme = url.startsWith(SENTINEL_SCHEME);
  if (clusterText !== null && (sentinelsText !== null || sentinelScheme)) {
    return failed('REDIS_CLUSTER_NODES and a Sentinel setting are both set; choose one topology');
  }
  if (clusterText !== null && nameText !== null) {
    return failed('REDIS_CLUSTER_NODES and REDIS_SENTINEL_NAME are both set; choose one topology');
  }
  if (sentinelScheme) {
    const alsoSet = [
      ...(sentinelsText === null ? [] : ['REDIS_SENTINELS']),
      ...(nameText === null ? [] : ['REDIS_SENTINEL_NAME']),
    ];
    if (alsoSet.length > 0) {
      return failed(
        `REDIS_URL is a redis+sentinel:// URL and ${alsoSet.join(' and ')} ${alsoSet.length > 1 ? 'are' : 'is'} ` +
          'set too; give the sentinels in REDIS_URL or in REDIS_SENTINELS/REDIS_SENTINEL_NAME, not both',
      );
    }
    return sentinelUrl(url);
  }
  const data = dataNodesOf(url);
  if (!data.ok) return data;
  if (clusterText !== null) {
    const nodes = readNodes('REDIS_CLUSTER_NODES', clusterText);
    if (!nodes.ok) return nodes;
    // SELECT is refused on a cluster: a database in the URL would be dropped without a word.
    if (data.value.db !== 0) {
      return failed(`REDIS_URL selects database ${data.value.db}, but a Redis Cluster has only database 0`);
    }
    return passed({ kind: 'cluster', nodes: nodes.value, auth: data.value.auth });
  }
  if (sentinelsText !== null || nameText !== null) {
    if (sentinelsText === null || nameText === null) {
      return failed('REDIS_SENTINELS and REDIS_SENTINEL_NAME must be set together');
    }
    const sentinels = readNodes('REDIS_SENTINELS', sentinelsText);
    if (!sentinels.ok) return sentinels;
    return passed({
      kind: 'sentinel',
      sentinels: sentinels.value,
      name: nameText,
      db: data.value.db,
      auth: data.value.auth,
    });
  }
  return passed({ kind: 'standalone', url });
}

/** In a cluster every key of one script must share a slot: the whole namespace gets one hash tag. */
export function keyPrefixFor(topology: RedisTopology, prefix: string): string {
  return topology.kind === 'cluster' ? `{${prefix}}` : prefix;
}

/** `redis+sentinel://[user:password@]host:port[,host:port…]/name[/db]` */
function sentinelUrl(url: string): Checked<RedisTopology> {
  const match = /^redis\+sentinel:\/\/(?:([^@/]*)@)?([^/]+)\/([^/]+)(?:\/(\d+))?\/?$/.exec(url);
  if (match === null) {
    return failed('REDIS_URL is not a redis+sentinel://[user:password@]host:port[,host:port]/name[/db] URL');
  }
  const sentinels = readNodes('REDIS_URL', match[2]);
  if (!sentinels.ok) return sentinels;
  const db = readDb(match[4] ?? '');
  if (!db.ok) return db;
  const [username, password] = splitUserInfo(match[1]);
  return passed({
    kind: 'sentinel',
    sentinels: sentinels.value,
    name: decodeURIComponent(match[3]),
    db: db.value,
    auth: { username, password, tls: false },
  });
}

function readNodes(variable: string, text: string): Checked<RedisNode[]> {
  const nodes: RedisNode[] = [];
  for (const item of splitList(text)) {
    const match = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9._-]+):(\d{1,5})$/.exec(item);
    const port = match === null ? NaN : Number(match[2]);
    if (match === null || port < 1 || port > 65535) {
      // Node addresses carry no secret, so the bad one is quoted.
      return failed(`${variable} has ${quoteConfigValue(item)}, not a host:port`);
    }
    nodes.push({ host: match[1].replace(/^\[|\]$/g, ''), port });
  }
  return nodes.length > 0 ? passed(nodes) : failed(`${variable} lists no host:port`);
}

/** Credentials, TLS and database of a redis:// or rediss:// REDIS_URL (never a redis+sentinel:// one). */
function dataNodesOf(url: string): Checked<{ auth: RedisAuth; db: number }> {
  const parsed = parseUrl(url);
  const scheme = parsed?.protocol;
  if (parsed === null || (scheme !== 'redis:' && scheme !== 'rediss:') || parsed.hostname === '') {
    return failed('REDIS_URL is not a redis:// or rediss:// URL with a host');
  }
  // One trailing slash is allowed, as ioredis and the redis+sentinel:// form allow it.
  const db = readDb(parsed.pathname.replace(/^\//, '').replace(/^(\d+)\/$/, '$1'));
  if (!db.ok) return db;
  const auth = {
    username: parsed.username === '' ? null : decodeURIComponent(parsed.username),
    password: parsed.password === '' ? null : decodeURIComponent(parsed.password),
    tls: scheme === 'rediss:',
  };
  return passed({ auth, db: db.value });
}

/** The database index of a URL path; none is 0. */
function readDb(text: string): Checked<number> {
  const db = /^\d{1,10}$/.test(text) ? Number(text) : text === '' ? 0 : NaN;
  if (db <= MAX_DB) return passed(db);
  // An "@" means a raw "/" in the password pushed part of it into the path: that is not quoted.
  const value = text.includes('@') ? '' : ` ${quoteConfigValue(text)}`;
  return failed(`REDIS_URL has database${value}, not a whole number from 0 to ${MAX_DB}`);
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function splitUserInfo(info: string | undefined): [string | null, string | null] {
  if (info === undefined || info === '') return [null, null];
  const colon = info.indexOf(':');
  const user = colon < 0 ? info : info.slice(0, colon);
  const password = colon < 0 ? '' : info.slice(colon + 1);
  return [
    user === '' ? null : decodeURIComponent(user),
    password === '' ? null : decodeURIComponent(password),
  ];
}
