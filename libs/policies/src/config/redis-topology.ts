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

/**
 * The topology from REDIS_URL, REDIS_SENTINELS/REDIS_SENTINEL_NAME and REDIS_CLUSTER_NODES: cluster nodes
 * win over sentinels, sentinels over the URL's host. Anything half-set is an error: guessing a topology
 * could point several replicas at different Redis servers.
 */
export function readRedisTopology(env: Environment, url: string): Checked<RedisTopology> {
  const clusterText = readSetText(env, 'REDIS_CLUSTER_NODES');
  const sentinelsText = readSetText(env, 'REDIS_SENTINELS');
  const nameText = readSetText(env, 'REDIS_SENTINEL_NAME')?.trim() ?? null;
  if (clusterText !== null && (sentinelsText !== null || url.startsWith('redis+sentinel:'))) {
    return failed('REDIS_CLUSTER_NODES and a Sentinel setting are both set; choose one topology');
  }
  if (clusterText !== null) {
    const nodes = readNodes('REDIS_CLUSTER_NODES', clusterText);
    if (!nodes.ok) return nodes;
    const auth = authOf(url);
    return auth.ok ? passed({ kind: 'cluster', nodes: nodes.value, auth: auth.value }) : auth;
  }
  if (url.startsWith(SENTINEL_SCHEME)) return sentinelUrl(url);
  if (sentinelsText !== null || nameText !== null) {
    if (sentinelsText === null || nameText === null || nameText === '') {
      return failed('REDIS_SENTINELS and REDIS_SENTINEL_NAME must be set together');
    }
    const sentinels = readNodes('REDIS_SENTINELS', sentinelsText);
    if (!sentinels.ok) return sentinels;
    const auth = authOf(url);
    if (!auth.ok) return auth;
    return passed({
      kind: 'sentinel',
      sentinels: sentinels.value,
      name: nameText,
      db: dbOf(url),
      auth: auth.value,
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
  const [username, password] = splitUserInfo(match[1]);
  return passed({
    kind: 'sentinel',
    sentinels: sentinels.value,
    name: decodeURIComponent(match[3]),
    db: match[4] === undefined ? 0 : Number(match[4]),
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

function authOf(url: string): Checked<RedisAuth> {
  if (url.startsWith(SENTINEL_SCHEME)) return passed({ username: null, password: null, tls: false });
  try {
    const parsed = new URL(url);
    return passed({
      username: parsed.username === '' ? null : decodeURIComponent(parsed.username),
      password: parsed.password === '' ? null : decodeURIComponent(parsed.password),
      tls: parsed.protocol === 'rediss:',
    });
  } catch {
    return failed('REDIS_URL is not a redis:// or rediss:// URL with a host');
  }
}

function dbOf(url: string): number {
  try {
    const db = Number(new URL(url).pathname.replace(/^\//, '') || '0');
    return Number.isInteger(db) && db >= 0 ? db : 0;
  } catch {
    return 0;
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
