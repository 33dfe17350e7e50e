import fc from 'fast-check';
import { catalogFromOutcome } from './catalog-json';
import { createResultFromOutcome } from './create-pod-json';
import type { ExchangeOutcome } from './http-exchange';
import { actionResultFromOutcome } from './pod-action-result';
import { podListFromOutcome } from './pod-list-json';
import { observationFromOutcome } from './pod-observation-json';
import {
  FAKE_KEY,
  FAST_TIMEOUTS,
  JSON_HEADERS,
  PROBLEM_HEADERS,
  mockRunPod,
  pod,
  type MockRunPod,
} from './testing/mock-runpod-harness';

/**
 * RunPod (or whatever sits at the base URL) answering with hostile shapes:
 * wrong types, huge arrays, prototype-pollution keys, truncated text. The
 * shaping code must return one of its typed results (never throw), must never
 * read an unidentifiable list as "no pod", and must not let `__proto__` or
 * `constructor` keys reach any object's prototype.
 */
const POD_STATUSES = ['Provisioning', 'Starting', 'Running', 'Exited', 'Error', 'Terminated', 'Unknown'];
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

/** Any JSON, with the hostile keys and the fields we read appearing often. */
const hostileJson = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 2 }),
    fc.dictionary(
      fc.constantFrom(
        ...HOSTILE_KEYS,
        'id',
        'status',
        'runtime',
        'uptime',
        'gpus',
        'gpu',
        'mounts',
        'network',
        'volumeId',
        'costPerHr',
        'pods',
        'detail',
        'title',
      ),
      tie('value'),
      { maxKeys: 6 },
    ),
    fc.array(tie('value'), { maxLength: 5 }),
  ),
})).value;

/** A 2xx or error status with a body that is hostile JSON, hostile JSON text cut short, or not JSON at all. */
const hostileOutcome: fc.Arbitrary<ExchangeOutcome> = fc.record({
  kind: fc.constant('response' as const),
  status: fc.oneof(
    fc.constantFrom(200, 201, 204, 400, 404, 409, 429, 500),
    fc.integer({ min: 100, max: 599 }),
  ),
  headers: fc.constantFrom(JSON_HEADERS, PROBLEM_HEADERS, {}, { 'content-type': 'text/html' }),
  body: fc.oneof(
    hostileJson.map((v) => JSON.stringify(v) ?? ''),
    hostileJson.chain((v) => {
      const text = JSON.stringify(v) ?? '';
      return fc.nat({ max: text.length }).map((cut) => text.slice(0, cut));
    }),
    fc.string({ maxLength: 50 }),
  ),
});

function prototypesUntouched(): void {
  const probe: Record<string, unknown> = {};
  expect(probe.polluted).toBeUndefined();
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(Object.keys(Array.prototype)).toEqual([]);
}

describe('RunPod answers with hostile shapes (shaping)', () => {
  afterEach(prototypesUntouched);

  it('a list is either every pod with an id or unreadable, never thrown, never a pod without an id', () => {
    fc.assert(
      fc.property(hostileOutcome, (outcome) => {
        const list = podListFromOutcome(outcome);
        expect(['listed', 'unreadable']).toContain(list.kind);
        if (list.kind === 'listed') {
          for (const listed of list.pods) {
            expect(typeof listed.id).toBe('string');
            expect(listed.id.trim()).not.toBe('');
            expect(listed.volumeIds.every((v) => typeof v === 'string')).toBe(true);
            expect(listed.costPerHr === null || Number.isFinite(listed.costPerHr)).toBe(true);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('an observation is found (with a known status), not-found or unreadable; a non-2xx is never found', () => {
    fc.assert(
      fc.property(hostileOutcome, (outcome) => {
        const seen = observationFromOutcome('p1', outcome);
        expect(seen.podId).toBe('p1');
        if (seen.kind === 'found') {
          expect(POD_STATUSES).toContain(seen.status);
          expect(Number.isInteger(seen.gpuCount) && seen.gpuCount >= 0).toBe(true);
          if (outcome.kind === 'response') expect(outcome.status >= 200 && outcome.status < 300).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a create never yields a pod id from a non-2xx, and its detail is a short string or null', () => {
    fc.assert(
      fc.property(hostileOutcome, (outcome) => {
        const result = createResultFromOutcome(outcome, Date.parse('2026-12-01T00:00:00Z'));
        const status = outcome.kind === 'response' ? outcome.status : 0;
        if (status < 200 || status >= 300) expect(result.podId).toBeNull();
        expect(
          result.detail === null || (typeof result.detail === 'string' && result.detail.length <= 300),
        ).toBe(true);
        const retry = result.retryAfterSeconds;
        expect(retry === null || (Number.isFinite(retry) && retry >= 0)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('an action is ok exactly on a 2xx; a catalog entry always has an id and a known availability', () => {
    fc.assert(
      fc.property(hostileOutcome, (outcome) => {
        const status = outcome.kind === 'response' ? outcome.status : 0;
        expect(actionResultFromOutcome(outcome).ok).toBe(status >= 200 && status < 300);
        for (const gpu of catalogFromOutcome(outcome)) {
          expect(typeof gpu.id).toBe('string');
          expect(['NONE', 'LOW', 'MEDIUM', 'HIGH']).toContain(gpu.availability);
          expect(gpu.securePrice === null || Number.isFinite(gpu.securePrice)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a status named like an Object.prototype member reads as Unknown, not as a function', () => {
    for (const status of HOSTILE_KEYS) {
      const body = JSON.stringify({ id: 'p1', status, runtime: { uptime: 5 } });
      const seen = observationFromOutcome('p1', {
        kind: 'response',
        status: 200,
        headers: JSON_HEADERS,
        body,
      });
      expect(seen).toMatchObject({ kind: 'found', podId: 'p1', status: 'Unknown', gpuCount: 0 });
    }
  });
});

describe('RunPod answers with hostile shapes (through the client)', () => {
  let mock: MockRunPod;
  beforeEach(() => {
    mock = mockRunPod({ timeouts: FAST_TIMEOUTS });
  });
  afterEach(async () => {
    await mock.finish();
    prototypesUntouched();
  });

  const list = (body: string) =>
    mock.api.intercept({ method: 'GET', path: '/v2/pods' }).reply(200, body, { headers: JSON_HEADERS });

  it('prototype-pollution keys in a listed pod reach no prototype and the pod still reads', async () => {
    list(
      `[{"id":"p1","status":"RUNNING","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},` +
        `"mounts":{"network":[{"volumeId":"vol-1","__proto__":{"volumeId":"vol-evil"}}]}}]`,
    );
    const seen = await mock.client.listPods();
    expect(seen).toMatchObject({ kind: 'listed', pods: [{ id: 'p1', volumeIds: ['vol-1'] }] });
  });

  it('a list of 200,000 entries is read in full (each pod counts), not cut to a prefix', async () => {
    const entries = Array.from({ length: 200_000 }, (_, i) => `{"id":"p${i}"}`);
    list(`[${entries.join(',')}]`);
    const seen = await mock.client.listPods();
    expect(seen.kind).toBe('listed');
    expect(seen.kind === 'listed' ? seen.pods.length : 0).toBe(200_000);
  });

  it('one entry of a huge list without an id makes the whole list unreadable (never "no pod")', async () => {
    const entries = Array.from({ length: 50_000 }, (_, i) => `{"id":"p${i}"}`);
    entries.push('{"id":12345,"mounts":{"network":[{"volumeId":"vol-eu-ro-1"}]}}');
    list(`[${entries.join(',')}]`);
    expect(await mock.client.lookupByVolume('vol-eu-ro-1')).toMatchObject({
      lookup: { kind: 'unreadable' },
    });
  });

  it('a body past the client cap is a failed read, not a parse of its first bytes', async () => {
    list(`[${'{"id":"p"},'.repeat(900_000)}{"id":"last"}]`);
    expect(await mock.client.listPods()).toEqual({
      kind: 'unreadable',
      reason: expect.stringMatching(/body over/),
    });
  });

  it('truncated JSON and wrong types are unreadable lists and Unknown observations', async () => {
    list('[{"id":"p1","status":"RUN');
    list('{"pods":"all of them"}');
    list('[{"id":["p1"]}]');
    mock.api
      .intercept({ method: 'GET', path: '/v2/pods/p1' })
      .reply(200, '{"id":"p1","status":{"$ne":null},"runtime":{"uptime":"42"}}', { headers: JSON_HEADERS });
    expect((await mock.client.listPods()).kind).toBe('unreadable');
    expect((await mock.client.listPods()).kind).toBe('unreadable');
    expect((await mock.client.listPods()).kind).toBe('unreadable');
    expect(await mock.client.observePod('p1')).toMatchObject({
      kind: 'found',
      podId: 'p1',
      status: 'Unknown',
      gpuCount: 0,
    });
  });

  it('a refusal that echoes the key escaped, URL-encoded or in base64 returns no form of it', async () => {
    const escaped = FAKE_KEY.replace(/_/g, '\\u005f');
    const encodedForms = [
      FAKE_KEY,
      encodeURIComponent(FAKE_KEY),
      Buffer.from(FAKE_KEY).toString('base64'),
      Buffer.from(FAKE_KEY).toString('base64url'),
    ];
    const refusal = (detail: string) =>
      mock.api
        .intercept({ method: 'POST', path: '/v2/pods' })
        .reply(401, `{"title":"Unauthorized","detail":"${detail}"}`, { headers: PROBLEM_HEADERS });
    refusal(`bad key ${escaped}`);
    for (const form of encodedForms.slice(1)) refusal(`bad key ${form}`);
    const request = { name: 'n', templateId: 't', dataCenterId: 'EU-RO-1', gpuId: 'g', volumeId: 'v' };
    const results: unknown[] = [];
    for (let i = 0; i < encodedForms.length; i++) results.push(await mock.client.createPod(request));
    const seen = JSON.stringify(results) + mock.logs.text();
    expect(results).toHaveLength(4);
    expect(results.every((r) => (r as { detail: string }).detail.startsWith('bad key'))).toBe(true);
    for (const form of encodedForms) expect(seen).not.toContain(form);
  });

  it('a pod answered with every field of the wrong type still yields a typed result for each call', async () => {
    const weird = pod({ id: 'p1', status: 7, costPerHr: '1.59', gpu: 'A100', runtime: [], mounts: 'vol-1' });
    mock.api.intercept({ method: 'GET', path: '/v2/pods' }).reply(200, [weird], { headers: JSON_HEADERS });
    mock.api.intercept({ method: 'GET', path: '/v2/pods/p1' }).reply(200, weird, { headers: JSON_HEADERS });
    expect(await mock.client.listPods()).toMatchObject({
      kind: 'listed',
      pods: [{ id: 'p1', status: null, costPerHr: null, gpuId: null, volumeIds: [] }],
    });
    expect(await mock.client.observePod('p1')).toMatchObject({ kind: 'found', status: 'Unknown' });
  });
});
