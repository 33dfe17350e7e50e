import {
  API_ORIGIN,
  CONTROL_PLANE_HEADERS,
  CONTROL_PLANE_JSON_HEADERS,
  FAST_TIMEOUTS,
  JSON_HEADERS,
  PROBLEM_HEADERS,
  SLOWER_THAN_TIMEOUT_MS,
  mockRunPod,
  onlyCall,
  pod,
  type MockRunPod,
} from './testing/mock-runpod-harness';
import type { RunPodClient } from './runpod-client';
import type { PodActionResult } from './pod-action-result';

type Action = 'start' | 'stop' | 'terminate';

const ROUTES: Record<Action, { method: 'POST' | 'DELETE'; path: string; body: string | undefined }> = {
  start: { method: 'POST', path: '/v2/pods/abc123/action', body: '{"action":"start"}' },
  stop: { method: 'POST', path: '/v2/pods/abc123/action', body: '{"action":"stop"}' },
  terminate: { method: 'DELETE', path: '/v2/pods/abc123', body: undefined },
};

const invoke = (client: RunPodClient, action: Action, podId = 'abc123'): Promise<PodActionResult> =>
  action === 'start'
    ? client.startPod(podId)
    : action === 'stop'
      ? client.stopPod(podId)
      : client.terminatePod(podId);

describe.each<Action>(['start', 'stop', 'terminate'])('RunPodClient %s', (action) => {
  const route = ROUTES[action];
  let mock: MockRunPod;
  beforeEach(() => {
    mock = mockRunPod({ timeouts: FAST_TIMEOUTS });
  });
  afterEach(() => mock.finish());

  const answer = (status: number, body: unknown, headers: Record<string, string> = JSON_HEADERS) =>
    mock.api
      .intercept({
        method: route.method,
        path: route.path,
        ...(route.body === undefined ? {} : { body: route.body }),
      })
      .reply(status, body as object, { headers });

  it(`sends exactly ${route.method} ${route.path} with body ${route.body ?? '(none)'}`, async () => {
    answer(action === 'terminate' ? 204 : 200, action === 'terminate' ? '' : pod());
    await invoke(mock.client, action);
    expect(onlyCall(mock)).toEqual({
      method: route.method,
      url: `${API_ORIGIN}${route.path}`,
      headers: route.body === undefined ? CONTROL_PLANE_HEADERS : CONTROL_PLANE_JSON_HEADERS,
      body: route.body,
    });
  });

  it.each([200, 202, 204])('is ok on http %i', async (status) => {
    answer(status, status === 204 ? '' : pod());
    expect(await invoke(mock.client, action)).toEqual({ ok: true, httpStatus: status, detail: null });
  });

  it.each([
    [
      404,
      { title: 'Not Found', status: 404, detail: 'pod not found or not accessible' },
      'pod not found or not accessible',
    ],
    [409, { title: 'Conflict', status: 409, detail: 'action does not apply' }, 'action does not apply'],
    [500, 'Internal Server Error', null],
    [401, { title: 'Unauthorized' }, 'Unauthorized'],
  ])('is not ok on http %i, with the problem detail', async (status, body, detail) => {
    answer(status, body, PROBLEM_HEADERS);
    expect(await invoke(mock.client, action)).toEqual({ ok: false, httpStatus: status, detail });
  });

  it('is not ok with status 0 on a transport error', async () => {
    mock.api.intercept({ method: route.method, path: route.path }).replyWithError(new Error('ECONNRESET'));
    expect(await invoke(mock.client, action)).toEqual({
      ok: false,
      httpStatus: 0,
      detail: 'transport error: ECONNRESET',
    });
  });

  it('is not ok with status 0 on a timeout', async () => {
    mock.api
      .intercept({ method: route.method, path: route.path })
      .reply(200, '')
      .delay(SLOWER_THAN_TIMEOUT_MS);
    expect(await invoke(mock.client, action)).toEqual({ ok: false, httpStatus: 0, detail: 'timeout' });
  });

  it('path-escapes the pod id', async () => {
    const escapedPath = route.path.replace('abc123', 'x%2Fy%3Fz');
    mock.api.intercept({ method: route.method, path: escapedPath }).reply(200, '');
    await invoke(mock.client, action, 'x/y?z');
    expect(onlyCall(mock).url).toBe(`${API_ORIGIN}${escapedPath}`);
  });
});
