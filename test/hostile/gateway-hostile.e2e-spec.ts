import { Queue } from 'bullmq';
import fc from 'fast-check';
import Redis from 'ioredis';
import { leakedSecrets } from '../support/secret-forms';
import { clearSimCalls, resetSim, simCalls, simWrites } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { REDIS_URL, TEST_OPERATOR_TOKEN, TEST_WAKE_TOKEN } from '../support/test-env';
import { rawRequest, type RawAnswer } from './support/raw-http';

/**
 * Hostile input on every gateway route, sent byte for byte over a socket:
 * path tricks, encoded slashes, 10 kB names, unicode, NUL, bad bodies, wrong
 * content types, header floods. Every answer is a 4xx, no RunPod call and no
 * wake job follow, no answer carries a secret, and the gateway stays up.
 */
const PATH_TRICKS = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2E%2F',
  '..%2f..%2fadmin%2fqueues',
  'qwen%2fstop',
  'qwen%2F..%2F..%2Fhealth%2Flive',
  'qwen%5c..%5c',
  '%252e%252e%252f',
  'qwen%00',
  '%00',
  'qwen\u0000',
  '\u0000',
  'qwen%0d%0aX-Injected:%20yes',
  '%',
  '%zz',
  'qwen%',
  'a'.repeat(10_240),
  encodeURIComponent('é'.repeat(5_000)),
  'ｑｗｅｎ',
  encodeURIComponent('ｑｗｅｎ'),
  'qwén',
  encodeURIComponent('qwen\u200b'),
  encodeURIComponent('\u202eneqw'),
  encodeURIComponent('qwe\u0301n'),
  encodeURIComponent('🦙'),
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'prototype',
  '$where',
  '*',
  encodeURIComponent('qwen*'),
  '%2a',
  encodeURIComponent("qwen' OR '1'='1"),
  encodeURIComponent('<script>alert(1)</script>'),
];

/** A name as it appears in the request target: a trick, a random string percent-encoded, or sent raw. */
const hostileName: fc.Arbitrary<string> = fc
  .oneof(
    fc.constantFrom(...PATH_TRICKS),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map(encodeURIComponent),
    fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 }).map(encodeURIComponent),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 20 }).map((s) => s.replace(/[\s?#/]/g, '')),
  )
  .filter((name) => name !== '' && !namesTheRealPod(name));

/** Only the pod's own name (any case, any percent-encoding of it) may reach it. */
function namesTheRealPod(name: string): boolean {
  try {
    return decodeURIComponent(name).toLowerCase() === 'qwen';
  } catch {
    return false;
  }
}

type Route = { readonly method: string; readonly path: (name: string) => string; readonly body?: string };
const ROUTES: Route[] = [
  { method: 'GET', path: (n) => `/api/pods/${n}` },
  { method: 'GET', path: (n) => `/api/pods/${n}/history` },
  { method: 'GET', path: (n) => `/api/pods/${n}/history?limit=5` },
  { method: 'POST', path: (n) => `/api/pods/${n}/start` },
  { method: 'POST', path: (n) => `/api/pods/${n}/stop` },
  { method: 'POST', path: (n) => `/api/pods/${n}/keepalive`, body: '{"minutes":5}' },
  { method: 'DELETE', path: (n) => `/api/pods/${n}/keepalive` },
];
const TOKENS: Array<string | null> = [
  TEST_OPERATOR_TOKEN,
  TEST_WAKE_TOKEN,
  null,
  'wrong',
  `${TEST_OPERATOR_TOKEN}x`,
];

describe('hostile input at the gateway', () => {
  let stack: Stack;
  let queue: Queue;
  let redis: Redis;
  const answers: RawAnswer[] = [];

  beforeAll(async () => {
    stack = await Stack.start({ name: 'hostile-gw', wakers: 1 });
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    queue = new Queue('wake', { connection: redis, prefix: stack.prefix });
    await resetSim(stack);
    await clearSimCalls(stack);
  });
  afterAll(async () => {
    await queue?.close();
    redis?.disconnect();
    await stack?.stop();
  });

  const send = async (
    method: string,
    target: string,
    options: { token?: string | null; headers?: Array<[string, string]>; body?: string | Buffer } = {},
  ): Promise<RawAnswer> => {
    const headers: Array<[string, string]> = [...(options.headers ?? [])];
    if (options.token) headers.push(['X-Rig-Operator-Token', options.token]);
    const answer = await rawRequest(stack.gatewayUrl, { method, target, headers, body: options.body });
    answers.push(answer);
    return answer;
  };

  const expectNoSecret = (answer: RawAnswer) =>
    expect(leakedSecrets(JSON.stringify(answer.headers) + answer.body)).toEqual([]);

  it('every route with a hostile name and any token: a 4xx, no RunPod call, no wake job', async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileName,
        fc.constantFrom(...ROUTES),
        fc.constantFrom(...TOKENS),
        async (name, route, token) => {
          const answer = await send(route.method, route.path(name), {
            token,
            body: route.body,
            headers: route.body === undefined ? [] : [['Content-Type', 'application/json']],
          });
          expect(answer.status).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
          if (answer.body !== '')
            expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
          expectNoSecret(answer);
        },
      ),
      { numRuns: 400 },
    );
    expect(answers.length).toBeGreaterThanOrEqual(400);
    expect(await simCalls(stack)).toEqual([]);
    expect(await queue.getJobCountByTypes('waiting', 'active', 'delayed', 'completed', 'failed')).toBe(0);
    expect(stack.gateway?.running).toBe(true);
  });

  it('an unknown name is 404 problem on every route, also with the operator token', async () => {
    for (const route of ROUTES) {
      const answer = await send(route.method, route.path('nobody-configured-this'), {
        token: TEST_OPERATOR_TOKEN,
        body: route.body,
        headers: route.body === undefined ? [] : [['Content-Type', 'application/json']],
      });
      expect([route.method, answer.status]).toEqual([route.method, 404]);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    expect(await simCalls(stack)).toEqual([]);
  });

  const KEEPALIVE_BODIES: Array<[string, string, string | Buffer]> = [
    ['malformed JSON', 'application/json', '{"minutes":'],
    ['JSON null', 'application/json', 'null'],
    ['a JSON array', 'application/json', '[5]'],
    ['a JSON string', 'application/json', '"5"'],
    ['minutes as a string', 'application/json', '{"minutes":"5"}'],
    ['minutes as an array', 'application/json', '{"minutes":[5]}'],
    ['minutes as an object', 'application/json', '{"minutes":{"$gt":0}}'],
    ['minutes past a double', 'application/json', '{"minutes":1e999}'],
    ['negative minutes', 'application/json', '{"minutes":-5}'],
    ['a day and a minute', 'application/json', '{"minutes":1441}'],
    ['a __proto__ key', 'application/json', '{"minutes":5,"__proto__":{"admin":true}}'],
    ['a constructor key', 'application/json', '{"minutes":5,"constructor":{"prototype":{"admin":true}}}'],
    ['an unknown field', 'application/json', '{"minutes":5,"podId":"p1"}'],
    ['an empty body', 'application/json', ''],
    ['NUL bytes', 'application/json', '{"minutes":\u00005}'],
    [
      'a lone surrogate',
      'application/json',
      Buffer.from([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x35, 0x7d]),
    ],
    ['text/plain', 'text/plain', '{"minutes":5}'],
    ['a form', 'application/x-www-form-urlencoded', 'minutes=5'],
    [
      'multipart',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="minutes"\r\n\r\n5\r\n--x--',
    ],
    ['a charset JSON does not use', 'application/json; charset=latin1', '{"minutes":5}'],
    ['2 MB of JSON', 'application/json', `{"minutes":5,"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`],
    ['10,000-deep nesting', 'application/json', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
  ];

  it.each(KEEPALIVE_BODIES)(
    'keepalive with %s: a 4xx problem and no keep-alive set',
    async (_what, type, body) => {
      const answer = await send('POST', '/api/pods/qwen/keepalive', {
        token: TEST_OPERATOR_TOKEN,
        headers: [['Content-Type', type]],
        body,
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expectNoSecret(answer);
      const status = await stack.api<{ keepAliveUntil: string | null }>('GET', '/api/pods/qwen');
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
      if (status.body.keepAliveUntil !== null) {
        // Clear it so one accepted body cannot hide the next case's result.
        await send('DELETE', '/api/pods/qwen/keepalive', { token: TEST_OPERATOR_TOKEN });
      }
      expect(status.body.keepAliveUntil).toBeNull();
    },
  );

  const QUERIES = [
    'limit=-1',
    'limit=0',
    'limit=1e99',
    'limit=abc',
    'limit=5&limit=6',
    'limit[]=5',
    'limit[$gt]=0',
    '__proto__[x]=1',
    'limit=%00',
    `limit=${'9'.repeat(5000)}`,
  ];

  it.each(QUERIES.map((q) => [q.slice(0, 30), q]))('history?%s is a 400 problem', async (_label, query) => {
    const answer = await send('GET', `/api/pods/qwen/history?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('header floods and odd token headers: 4xx, never a start, and the gateway keeps serving', async () => {
    const many = Array.from({ length: 5_000 }, (_, i): [string, string] => [`X-Flood-${i}`, 'x']);
    const huge: Array<[string, string]> = [['X-Huge', 'y'.repeat(100_000)]];
    const twoTokens: Array<[string, string]> = [
      ['X-Rig-Operator-Token', 'wrong'],
      ['X-Rig-Operator-Token', TEST_OPERATOR_TOKEN],
    ];
    const flooded = [
      await send('POST', '/api/pods/qwen/start', { token: TEST_OPERATOR_TOKEN, headers: many }),
      await send('POST', '/api/pods/qwen/start', { token: TEST_OPERATOR_TOKEN, headers: huge }),
      await send('POST', '/api/pods/qwen/start', { headers: twoTokens }),
      await send('POST', '/api/pods/qwen/start', { token: `${TEST_OPERATOR_TOKEN}\u0000` }),
      await send('POST', '/api/pods/qwen/start', { token: ` ${TEST_WAKE_TOKEN}x` }),
      await send('POST', '/api/pods/qwen/stop', { token: encodeURIComponent(TEST_OPERATOR_TOKEN) + '%00' }),
      await send('POST', '/api/pods/qwen/start', {
        headers: [['Authorization', `Basic ${Buffer.from(`x:${TEST_OPERATOR_TOKEN}`).toString('base64')}`]],
      }),
    ];
    // Node answers a header flood with 431 and closes; while we are still writing, the close can win (0).
    expect([0, 431]).toContain(flooded[0].status);
    expect([0, 431]).toContain(flooded[1].status);
    // A raw NUL in a header value is refused by Node's parser (400) before the gate sees it.
    expect(flooded.slice(2).map((a) => a.status)).toEqual([401, 400, 401, 401, 401]);
    for (const answer of flooded) expectNoSecret(answer);
    expect(await simWrites(stack)).toEqual([]);
    expect(await queue.getJobCountByTypes('waiting', 'active', 'delayed', 'completed', 'failed')).toBe(0);
    expect((await stack.api('GET', '/health/live')).status).toBe(200);
  });

  it('the gateway and the waker are still running, and no answer of this file carried a secret', () => {
    expect(answers.length).toBeGreaterThan(400);
    for (const answer of answers) expectNoSecret(answer);
    expect(stack.gateway?.running).toBe(true);
    expect(stack.wakers[0].running).toBe(true);
  });
});
