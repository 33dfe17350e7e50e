import { Checked, failed, passed } from './checked';
import { quoteConfigValue } from './quote-config-value';

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function isHttpUrl(url: URL | null): boolean {
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

function withoutTrailingSlash(text: string): string {
  return text.replace(/\/+$/, '');
}

/** REDIS_URL must name a host over redis:// or rediss://; a redis+sentinel:// URL is checked by the topology reader. */
export function checkRedisUrl(text: string): Checked<string> {
  if (text.startsWith('redis+sentinel://')) return passed(text);
  const url = parseUrl(text);
  const ok = url !== null && (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
  // The value is not quoted: a Redis URL may carry a password.
  return ok
    ? passed(text)
    : failed('REDIS_URL is not a redis://, rediss:// or redis+sentinel:// URL with a host');
}

/** RUNPOD_V2_BASE_URL must be http(s) with a host; returned without a trailing slash so paths append cleanly. */
export function checkRunpodBaseUrl(text: string): Checked<string> {
  return isHttpUrl(parseUrl(text))
    ? passed(withoutTrailingSlash(text))
    : failed(`RUNPOD_V2_BASE_URL=${quoteConfigValue(text)} is not an http(s) URL with a host`);
}

/**
 * RUNPOD_PROXY_URL_TEMPLATE must contain {podId} and be an http(s) URL once
 * filled in; returned without a trailing slash because /metrics is appended.
 */
export function checkProxyUrlTemplate(text: string): Checked<string> {
  const sample = text.split('{podId}').join('pod').split('{port}').join('8000');
  return text.includes('{podId}') && isHttpUrl(parseUrl(sample))
    ? passed(withoutTrailingSlash(text))
    : failed(
        `RUNPOD_PROXY_URL_TEMPLATE=${quoteConfigValue(text)} is not an http(s) URL template containing {podId}`,
      );
}
