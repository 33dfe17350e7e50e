import { parseHttpDate } from './http-date';

/**
 * Seconds to wait from a Retry-After: delta seconds, or an HTTP date against the response's Date (the
 * server's clock, so skew cancels out), else ours. A moment already past is 0; unparseable is null.
 */
export function parseRetryAfterSeconds(
  retryAfter: string | string[] | undefined,
  responseDate: string | string[] | undefined,
  nowMs: number,
): number | null {
  const value = firstValue(retryAfter)?.trim();
  if (value === undefined || value === '') {
    return null;
  }
  if (/^-?\d+$/.test(value)) {
    return Math.max(0, Number(value));
  }
  const retryAtMs = parseHttpDate(value);
  if (retryAtMs === null) {
    return null;
  }
  const dateValue = firstValue(responseDate);
  const referenceMs = (dateValue === undefined ? null : parseHttpDate(dateValue)) ?? nowMs;
  return Math.max(0, Math.ceil((retryAtMs - referenceMs) / 1000));
}

function firstValue(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}
