import { ActionLog, KeepAliveStore } from '@podwarden/platform';
import {
  OPERATOR,
  WAKER,
  deferred,
  startGateway,
  until,
  type Answer,
  type GatewayHarness,
} from '../testing/gateway-harness';
import { leakedSecrets } from '../testing/secret-scan';
import { PodStatusService } from '../status/pod-status.service';

const RULE = 'minutes must be a number greater than 0 and at most 1440';

function untilMs(answer: Answer): number {
  return Date.parse(String(answer.body.keepAliveUntil));
}

describe('POST and DELETE /api/pods/{name}/keepalive', () => {
  let gw: GatewayHarness;
  let store: KeepAliveStore;
  beforeAll(async () => {
    gw = await startGateway('keepalive');
    store = gw.app.get(KeepAliveStore);
  });
  afterAll(async () => {
    await gw.close();
  });
  beforeEach(async () => {
    await gw.resetRunPod();
    await store.clear('qwen');
  });

  it.each([['the operator token', OPERATOR]])(
    'with %s, POST sets the keep-alive minutes from now and answers 200 with its ISO deadline',
    async (_rule, headers) => {
      const before = Date.now();
      const answer = await gw.request('POST', '/api/pods/QWEN/keepalive', headers, { minutes: 30 });
      const after = Date.now();

      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ name: 'qwen', keepAliveUntil: expect.any(String) });
      expect(new Date(untilMs(answer)).toISOString()).toBe(answer.body.keepAliveUntil);
      expect(untilMs(answer)).toBeGreaterThanOrEqual(before + 30 * 60_000);
      expect(untilMs(answer)).toBeLessThanOrEqual(after + 30 * 60_000);
      expect(await store.get('qwen')).toBe(untilMs(answer));
      expect(gw.fake.calls).toEqual([]);
    },
  );

  it('decimal minutes are allowed', async () => {
    const before = Date.now();
    const answer = await gw.request('POST', '/api/pods/qwen/keepalive', OPERATOR, { minutes: 0.5 });
    expect(answer.status).toBe(200);
    expect(untilMs(answer) - before).toBeGreaterThanOrEqual(30_000);
    expect(untilMs(answer) - before).toBeLessThan(40_000);
  });

  it('a second POST replaces the deadline rather than adding to it', async () => {
    await gw.request('POST', '/api/pods/qwen/keepalive', OPERATOR, { minutes: 600 });
    const answer = await gw.request('POST', '/api/pods/qwen/keepalive', OPERATOR, { minutes: 1 });
    expect(await store.get('qwen')).toBe(untilMs(answer));
    expect(untilMs(answer) - Date.now()).toBeLessThanOrEqual(60_000);
  });

  it.each([['the operator token', OPERATOR]])(
    'with %s, DELETE clears it and answers 200 with keepAliveUntil null',
    async (_rule, headers) => {
      await store.set('qwen', Date.now() + 60_000);
      const answer = await gw.request('DELETE', '/api/pods/Qwen/keepalive', headers);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ name: 'qwen', keepAliveUntil: null });
      expect(await store.get('qwen')).toBeNull();
    },
  );

  it('DELETE with no keep-alive set is still 200 with keepAliveUntil null', async () => {
    const answer = await gw.request('DELETE', '/api/pods/qwen/keepalive', OPERATOR);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ name: 'qwen', keepAliveUntil: null });
  });

  it.each<[string, unknown]>([
    ['missing minutes', {}],
    ['zero', { minutes: 0 }],
    ['a negative number', { minutes: -1 }],
    ['more than a day', { minutes: 1441 }],
    ['a numeric string', { minutes: '30' }],
    ['null', { minutes: null }],
    ['a JSON array body', [30]],
  ])('%s is a 400 problem naming the rule, and nothing is written', async (_rule, body) => {
    const answer = await gw.request('POST', '/api/pods/qwen/keepalive', OPERATOR, body);
    expect(answer.status).toBe(400);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ status: 400, title: 'Bad minutes', detail: RULE, name: 'qwen' });
    expect(await store.get('qwen')).toBeNull();
  });

  it('a bad minutes problem names the field and the rule it broke', async () => {
    const answer = await gw.request('POST', '/api/pods/qwen/keepalive', OPERATOR, { minutes: 2000 });
    expect(answer.body).toMatchObject({
      type: 'urn:podwarden:problem:bad-minutes',
      field: 'minutes',
      violations: [{ field: 'minutes', rules: ['max'] }],
    });
  });

  it('a field the body does not define is refused, not dropped, and nothing is written', async () => {
    const answer = await gw.request('POST', '/api/pods/qwen/keepalive', OPERATOR, { minutes: 5, hours: 1 });
    expect(answer.status).toBe(400);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body).toMatchObject({
      title: 'Bad hours',
      detail: 'property hours should not exist',
      field: 'hours',
      name: 'qwen',
    });
    expect(await store.get('qwen')).toBeNull();
  });

  it('no body at all is a 400 problem naming the rule', async () => {
    const answer = await gw.request('POST', '/api/pods/qwen/keepalive', OPERATOR);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: 400, detail: RULE });
  });

  it('a body that is not JSON is a 400 problem', async () => {
    const answer = await gw.request('POST', '/api/pods/qwen/keepalive', OPERATOR, '{"minutes":');
    expect(answer.status).toBe(400);
    expect(answer.contentType).toContain('application/problem+json');
    expect(await store.get('qwen')).toBeNull();
  });

  it.each<[string, string, Record<string, string>, unknown]>([
    ['POST without a token', 'POST', {}, { minutes: 5 }],
    ['POST with a wrong token', 'POST', { 'X-Rig-Operator-Token': 'nope' }, { minutes: 5 }],
    ['POST with bad minutes and no token (401 before 400)', 'POST', {}, { minutes: -1 }],
    ['DELETE without a token', 'DELETE', {}, undefined],
    ['DELETE with a wrong token', 'DELETE', { 'X-Rig-Operator-Token': 'nope' }, undefined],
    ['POST with the wake-only token (accepted on start only)', 'POST', WAKER, { minutes: 5 }],
    ['DELETE with the wake-only token', 'DELETE', WAKER, undefined],
  ])('%s is a 401 problem and changes nothing', async (_rule, method, headers, body) => {
    await store.set('qwen', Date.now() + 60_000);
    const before = await store.get('qwen');
    const answer = await gw.request(method, '/api/pods/qwen/keepalive', headers, body);
    expect(answer.status).toBe(401);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ status: 401, title: 'Unauthorized' });
    expect(await store.get('qwen')).toBe(before);
  });

  it.each<[string, string, unknown]>([
    ['POST', 'POST', { minutes: 5 }],
    ['DELETE', 'DELETE', undefined],
  ])('%s of an unknown pod is 401 without a token, before the 404', async (_rule, method, body) => {
    const answer = await gw.request(method, '/api/pods/llama/keepalive', {}, body);
    expect(answer.status).toBe(401);
  });

  it.each<[string, string, unknown]>([
    ['POST', 'POST', { minutes: 5 }],
    ['POST with bad minutes', 'POST', { minutes: 0 }],
    ['DELETE', 'DELETE', undefined],
  ])(
    '%s of an unknown pod with a valid token is a 404 problem, writing nothing',
    async (_rule, method, body) => {
      const answer = await gw.request(method, '/api/pods/llama/keepalive', OPERATOR, body);
      expect(answer.status).toBe(404);
      expect(answer.contentType).toContain('application/problem+json');
      expect(answer.body).toMatchObject({ status: 404, title: 'Unknown pod' });
      expect(await store.get('llama')).toBeNull();
      expect(gw.fake.calls).toEqual([]);
    },
  );

  it('GET and the list report keepAliveUntil while set, and null after DELETE', async () => {
    const set = await gw.request('POST', '/api/pods/qwen/keepalive', OPERATOR, { minutes: 10 });
    const held = await gw.request('GET', '/api/pods/qwen');
    const listed = await gw.request('GET', '/api/pods');
    await gw.request('DELETE', '/api/pods/qwen/keepalive', OPERATOR);
    const cleared = await gw.request('GET', '/api/pods/qwen');

    expect(held.body.keepAliveUntil).toBe(set.body.keepAliveUntil);
    expect((listed.body.pods as Array<Record<string, unknown>>)[0].keepAliveUntil).toBe(
      set.body.keepAliveUntil,
    );
    expect(cleared.status).toBe(200);
    expect(cleared.body.keepAliveUntil).toBeNull();
  });

  it('setting and clearing are recorded in the action log with who asked, newest first', async () => {
    const actions = gw.app.get(ActionLog);
    const set = await gw.request(
      'POST',
      '/api/pods/qwen/keepalive',
      { ...OPERATOR, 'X-Requested-By': 'alice' },
      { minutes: 2 },
    );
    await gw.request('DELETE', '/api/pods/qwen/keepalive', OPERATOR);
    const [cleared, kept] = await actions.recent('qwen', 2);
    expect(kept).toMatchObject({
      action: 'KeepAlive',
      trigger: 'manual',
      podId: null,
      httpStatus: 0,
      ok: true,
      detail: `set until ${String(set.body.keepAliveUntil)} (2 min) by alice`,
    });
    expect(cleared).toMatchObject({ action: 'KeepAlive', detail: 'cleared by operator' });
    const history = await gw.request('GET', '/api/pods/qwen/history?limit=2');
    expect((history.body.actions as Array<{ action: string }>).map((a) => a.action)).toEqual([
      'KeepAlive',
      'KeepAlive',
    ]);
  });

  it('a refused change records nothing', async () => {
    const actions = gw.app.get(ActionLog);
    const before = (await actions.recent('qwen', 100)).length;
    await gw.request('POST', '/api/pods/qwen/keepalive', WAKER, { minutes: 5 });
    await gw.request('POST', '/api/pods/qwen/keepalive', OPERATOR, { minutes: 0 });
    expect(await actions.recent('qwen', 100)).toHaveLength(before);
  });

  it('the routes are in the OpenAPI document', async () => {
    const docs = await gw.request('GET', '/docs-json');
    const paths = docs.body.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/api/pods/{name}/keepalive']).sort()).toEqual(['delete', 'post']);
  });

  it('never leaks a secret in the answers and log lines it produces', async () => {
    const produced = await gw.produced(async () => {
      await gw.request('POST', '/api/pods/qwen/keepalive', OPERATOR, { minutes: 5 });
      await gw.request('POST', '/api/pods/qwen/keepalive', OPERATOR, { minutes: -1 });
      await gw.request('POST', '/api/pods/qwen/keepalive', { 'X-Rig-Operator-Token': 'x' }, { minutes: 5 });
      await gw.request('DELETE', '/api/pods/qwen/keepalive', WAKER);
      await gw.request('DELETE', '/api/pods/qwen/keepalive', OPERATOR);
    });
    expect(produced.answers.map((answer) => answer.status)).toEqual([200, 400, 401, 401, 200]);
    expect(leakedSecrets(produced)).toEqual([]);
  });
});

describe('keep-alive changes and GET coalescing', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('keepalive-burst');
  });
  afterAll(async () => {
    await gw.close();
  });

  it.each<[string, (gw: GatewayHarness) => Promise<Answer>, boolean]>([
    ['POST', (g) => g.request('POST', '/api/pods/qwen/keepalive', OPERATOR, { minutes: 5 }), true],
    ['DELETE', (g) => g.request('DELETE', '/api/pods/qwen/keepalive', OPERATOR), false],
  ])('a GET after a %s never shares a read that began before it', async (_rule, change, setAfter) => {
    const store = gw.app.get(KeepAliveStore);
    if (setAfter) await store.clear('qwen');
    else await store.set('qwen', Date.now() + 60_000);
    const heldList = deferred();
    gw.fake.holdNextList = heldList.promise;
    const keepAliveReads = jest.spyOn(store, 'get');
    const statusReads = jest.spyOn(gw.app.get(PodStatusService), 'read');
    try {
      const early = gw.request('GET', '/api/pods/qwen');
      // The early read has its keep-alive from Redis before the change, while its RunPod list is held.
      await until(() => keepAliveReads.mock.calls.length === 1, 'the early keep-alive read');
      await keepAliveReads.mock.results[0].value;
      await change(gw);
      const late = gw.request('GET', '/api/pods/qwen');
      await until(() => statusReads.mock.calls.length === 2, 'the late GET asking for the status');
      heldList.release();

      expect((await early).body.keepAliveUntil === null).toBe(setAfter);
      expect((await late).body.keepAliveUntil === null).toBe(!setAfter);
    } finally {
      keepAliveReads.mockRestore();
      statusReads.mockRestore();
    }
  });

  it('a GET arriving while a change is being written does not join a read that began before it', async () => {
    await gw.resetRunPod();
    const store = gw.app.get(KeepAliveStore);
    const heldList = deferred();
    const heldWrite = deferred();
    gw.fake.holdNextList = heldList.promise;
    const set = store.set.bind(store);
    const writes = jest.spyOn(store, 'set').mockImplementation(async (...args) => {
      await heldWrite.promise;
      return set(...args);
    });
    const statusReads = jest.spyOn(gw.app.get(PodStatusService), 'read');
    try {
      const early = gw.request('GET', '/api/pods/qwen');
      await until(() => gw.fake.count('list') === 1, 'the early read listing');
      const change = gw.request('POST', '/api/pods/qwen/keepalive', OPERATOR, { minutes: 5 });
      await until(() => writes.mock.calls.length === 1, 'the keep-alive write under way');
      const during = gw.request('GET', '/api/pods/qwen');
      await until(() => statusReads.mock.calls.length === 2, 'the GET during the write');
      // Its own read, not the held one that began before the write.
      await until(() => gw.fake.count('list') === 2, 'a second list');
      heldWrite.release();
      heldList.release();
      expect((await Promise.all([early, change, during])).map((answer) => answer.status)).toEqual([
        200, 200, 200,
      ]);
    } finally {
      writes.mockRestore();
      statusReads.mockRestore();
      heldWrite.release();
      heldList.release();
    }
  });
});

describe('keep-alive when Redis cannot be reached', () => {
  let gw: GatewayHarness;
  const failing = () => Promise.reject(new Error('ECONNREFUSED scripted'));
  beforeAll(async () => {
    gw = await startGateway('keepalive-redis-down', {
      overrides: [{ token: KeepAliveStore, value: { get: failing, set: failing, clear: failing } }],
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('GET still answers 200 with keepAliveUntil null and logs a warning', async () => {
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect(answer.status).toBe(200);
    expect(answer.body.keepAliveUntil).toBeNull();
    expect(gw.logs.messages('warn')).toContain('pod status: keep-alive unreadable; reporting null');
  });

  it.each<[string, string, unknown]>([
    ['POST', 'POST', { minutes: 5 }],
    ['DELETE', 'DELETE', undefined],
  ])('%s is a 503 problem: the caller must not believe the pod is held up', async (_rule, method, body) => {
    const answer = await gw.request(method, '/api/pods/qwen/keepalive', OPERATOR, body);
    expect(answer.status).toBe(503);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ status: 503, title: 'Keep-alive store unavailable', name: 'qwen' });
  });
});

describe('keep-alive under a ceiling set by KEEP_ALIVE_MAX_MINUTES', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('keepalive-ceiling', { env: { KEEP_ALIVE_MAX_MINUTES: '60' } });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('more than the ceiling is a 400 naming it, and nothing is written or recorded', async () => {
    const store = gw.app.get(KeepAliveStore);
    const answer = await gw.request('POST', '/api/pods/qwen/keepalive', OPERATOR, { minutes: 61 });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      title: 'Bad minutes',
      detail: 'minutes must be a number greater than 0 and at most 60 (KEEP_ALIVE_MAX_MINUTES)',
      field: 'minutes',
      name: 'qwen',
    });
    expect(await store.get('qwen')).toBeNull();
    expect(await gw.app.get(ActionLog).recent('qwen', 10)).toEqual([]);
  });

  it('the ceiling itself is accepted', async () => {
    const answer = await gw.request('POST', '/api/pods/qwen/keepalive', OPERATOR, { minutes: 60 });
    expect(answer.status).toBe(200);
  });
});

describe('keep-alive with the gate on and no RIG_OPERATOR_TOKEN', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('keepalive-no-token', { env: { RIG_OPERATOR_TOKEN: undefined } });
  });
  afterAll(async () => {
    await gw.close();
  });

  it.each<[string, string, unknown]>([
    ['POST', 'POST', { minutes: 5 }],
    ['DELETE', 'DELETE', undefined],
  ])('%s fails closed with 503, even with the wake token', async (_rule, method, body) => {
    const answer = await gw.request(method, '/api/pods/qwen/keepalive', WAKER, body);
    expect(answer.status).toBe(503);
    expect(answer.body.detail).toContain('RIG_OPERATOR_TOKEN');
  });
});
