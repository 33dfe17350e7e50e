/** Headers as Node gives them: lower-case names, a list for a repeated header. */
export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

// RFC 9110 §7.6.1 connection-specific fields, plus the proxy's own concerns.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

// host is the upstream's; content-length is recomputed for the body actually sent;
// authorization is the client's token for this proxy, never forwarded to the pod.
const REQUEST_ONLY = new Set(['host', 'authorization', 'content-length', 'expect']);

/**
 * The headers one side of the proxy passes to the other: everything except the
 * hop-by-hop fields (also those the Connection header names) and, towards the
 * pod, the host, the body length and the client's token.
 */
export function forwardableHeaders(
  headers: HeaderBag,
  direction: 'request' | 'response',
): Record<string, string | string[]> {
  const named = new Set(
    listOf(headers.connection)
      .flatMap((value) => value.split(','))
      // An empty name (from `close,` or `, x`) matches no header: Node never gives one a name of ''.
      .map((name) => name.trim().toLowerCase()),
  );
  const out: Record<string, string | string[]> = {};
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    if (direction === 'request' && REQUEST_ONLY.has(name)) continue;
    out[name] = typeof value === 'string' ? value : [...value];
  }
  return out;
}

function listOf(value: string | readonly string[] | undefined): readonly string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}

/** The bearer token of an Authorization header; null when there is none or it is not a bearer. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return match === null ? null : match[1];
}
