import { parseConfig } from './parse-config';

function errorOf(env: Record<string, string | undefined>): string {
  const result = parseConfig(env, null);
  if (result.ok) throw new Error('expected an error');
  return result.error;
}

const REDIS_ERROR = 'REDIS_URL is not a redis://, rediss:// or redis+sentinel:// URL with a host';

describe('structural errors in the environment refuse to start with one line', () => {
  it.each([
    ['REDIS_URL', 'not a url', REDIS_ERROR],
    ['REDIS_URL', 'http://127.0.0.1:6379', REDIS_ERROR],
    ['REDIS_URL', '127.0.0.1:6379', REDIS_ERROR],
    ['REDIS_URL', 'redis://', REDIS_ERROR],
    ['REDIS_URL', 'redis:localhost', REDIS_ERROR],
    ['REDIS_URL', 'redis://127.0.0.1:99999', REDIS_ERROR],
    [
      'RUNPOD_V2_BASE_URL',
      'api.runpod.io/v2',
      'RUNPOD_V2_BASE_URL="api.runpod.io/v2" is not an http(s) URL with a host',
    ],
    [
      'RUNPOD_V2_BASE_URL',
      'ftp://api.runpod.io/v2',
      'RUNPOD_V2_BASE_URL="ftp://api.runpod.io/v2" is not an http(s) URL with a host',
    ],
    ['RUNPOD_V2_BASE_URL', 'http://', 'RUNPOD_V2_BASE_URL="http://" is not an http(s) URL with a host'],
    ...['1,50', 'many', '0', '-5', '25 USD', '1e3'].map((bad) => [
      'DAILY_BUDGET_USD',
      bad,
      `DAILY_BUDGET_USD="${bad}" is not a positive dot decimal such as 25.00; refusing to start without the ceiling it was meant to set`,
    ]),
    [
      'RUNPOD_PROXY_URL_TEMPLATE',
      'https://pod-{port}.proxy.runpod.net',
      'RUNPOD_PROXY_URL_TEMPLATE="https://pod-{port}.proxy.runpod.net" is not an http(s) URL template containing {podId}',
    ],
    [
      'RUNPOD_PROXY_URL_TEMPLATE',
      'ws://{podId}-{port}.proxy.runpod.net',
      'RUNPOD_PROXY_URL_TEMPLATE="ws://{podId}-{port}.proxy.runpod.net" is not an http(s) URL template containing {podId}',
    ],
    [
      'RUNPOD_PROXY_URL_TEMPLATE',
      '{podId}-{port}.proxy.runpod.net',
      'RUNPOD_PROXY_URL_TEMPLATE="{podId}-{port}.proxy.runpod.net" is not an http(s) URL template containing {podId}',
    ],
    // Filled with a real port, "pod.8000" is no valid host: its last label is numeric.
    [
      'RUNPOD_PROXY_URL_TEMPLATE',
      'http://{podId}.{port}',
      'RUNPOD_PROXY_URL_TEMPLATE="http://{podId}.{port}" is not an http(s) URL template containing {podId}',
    ],
    [
      'QUEUE_PREFIX',
      'pod warden',
      'QUEUE_PREFIX="pod warden" may hold only letters, digits, "-", "_" and ":"',
    ],
    ['QUEUE_PREFIX', 'pw*', 'QUEUE_PREFIX="pw*" may hold only letters, digits, "-", "_" and ":"'],
    ['QUEUE_PREFIX', 'pw{1}', 'QUEUE_PREFIX="pw{1}" may hold only letters, digits, "-", "_" and ":"'],
    [
      'RUNPOD_POD_NAME',
      'my pod',
      'RUNPOD_POD_NAME="my pod" is not URL-safe (letters, digits, "-", "_" and "." only)',
    ],
    [
      'RUNPOD_POD_NAME',
      'a/b',
      'RUNPOD_POD_NAME="a/b" is not URL-safe (letters, digits, "-", "_" and "." only)',
    ],
    ['RUNPOD_POD_NAME', '.', 'RUNPOD_POD_NAME="." is not URL-safe (letters, digits, "-", "_" and "." only)'],
    [
      'RUNPOD_POD_NAME',
      'qwen?x=1',
      'RUNPOD_POD_NAME="qwen?x=1" is not URL-safe (letters, digits, "-", "_" and "." only)',
    ],
  ])('%s=%j', (variable, value, message) => {
    const error = errorOf({ [variable]: value });
    expect(error).toBe(message);
    expect(error).not.toMatch(/\n/);
  });

  it('does not quote REDIS_URL, which may carry a password', () => {
    expect(errorOf({ REDIS_URL: 'http://:hunter2@redis:6379' })).not.toContain('hunter2');
  });

  it.each([
    'redis://localhost',
    'rediss://user:pw@redis.internal:6380/2',
    'redis://[::1]:6379',
    // The sentinel form is the topology reader's to check, never refused as "not redis://".
    'redis+sentinel://s1:26379,s2:26379/mymaster/2',
  ])('REDIS_URL=%j is accepted', (url) => {
    expect(parseConfig({ REDIS_URL: url }, null).ok).toBe(true);
  });

  it.each([
    'http://127.0.0.1:9100/proxy/{podId}',
    'https://{podId}.example.test:{port}',
    'http://{podId}:{port}',
  ])('RUNPOD_PROXY_URL_TEMPLATE=%j is accepted ({port} is optional)', (template) => {
    expect(parseConfig({ RUNPOD_PROXY_URL_TEMPLATE: template }, null).ok).toBe(true);
  });
});
