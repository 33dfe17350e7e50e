const MAX_LENGTH = 64;
const UNSAFE = /[^A-Za-z0-9 ._@:/-]/g;

export const DEFAULT_REQUESTER = 'gateway';
/** Who a keep-alive change is recorded as when the caller does not say: the operator token's holder. */
export const OPERATOR_REQUESTER = 'operator';

/**
 * Who asked for a wake, for the wake history. The X-Requested-By header is
 * caller-controlled text that ends up in logs and records, so only a short,
 * plain-character version of it is kept; anything empty after that is "gateway".
 */
export function requestedBy(header: string | undefined, fallback: string = DEFAULT_REQUESTER): string {
  if (header === undefined) return fallback;
  const cleaned = header.replace(UNSAFE, '').trim().slice(0, MAX_LENGTH).trim();
  return cleaned === '' ? fallback : cleaned;
}
