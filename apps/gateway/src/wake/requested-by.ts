const MAX_LENGTH = 64;
const UNSAFE = /[^A-Za-z0-9 ._@:/-]/g;

export const DEFAULT_REQUESTER = 'gateway';

/**
 * Who asked for a wake, for the wake history. The X-Requested-By header is
 * caller-controlled text that ends up in logs and records, so only a short,
 * plain-character version of it is kept; anything empty after that is "gateway".
 */
export function requestedBy(header: string | undefined): string {
  if (header === undefined) return DEFAULT_REQUESTER;
  const cleaned = header.replace(UNSAFE, '').trim().slice(0, MAX_LENGTH).trim();
  return cleaned === '' ? DEFAULT_REQUESTER : cleaned;
}
