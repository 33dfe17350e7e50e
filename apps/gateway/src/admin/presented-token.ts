/**
 * The token a Bull Board request presents: the operator header, else the
 * password of HTTP basic auth (any username), so a browser can log in.
 */
export function presentedToken(
  headerValue: string | undefined,
  authorization: string | undefined,
): string | undefined {
  if (headerValue !== undefined && headerValue !== '') return headerValue;
  if (authorization === undefined) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? undefined : decoded.slice(colon + 1);
}
