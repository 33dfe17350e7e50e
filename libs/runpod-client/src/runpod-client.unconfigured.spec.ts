import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RunPodClient } from './runpod-client';
import {
  API_ORIGIN,
  BASE_URL,
  FAKE_KEY,
  PROXY_TEMPLATE,
  mockRunPod,
  onlyCall,
} from './testing/mock-runpod-harness';

const REQUEST = { name: 'n', templateId: 't', dataCenterId: 'EU-RO-1', gpuId: 'g', volumeId: 'v' };

describe('RunPodClient without an API key', () => {
  it.each([
    ['null', null],
    ['empty', ''],
    ['blank', '  \n'],
  ])('is unconfigured with a %s key and makes no request at all', async (_case, apiKey) => {
    // No interceptors and net connect disabled: any request would be recorded and fail.
    const mock = mockRunPod({ apiKey });
    const { client } = mock;
    expect(client.isConfigured).toBe(false);

    expect(await client.getCatalog()).toEqual([]);
    expect(await client.observePod('abc123')).toEqual({
      kind: 'unreadable',
      podId: 'abc123',
      reason: 'unconfigured',
    });
    expect(await client.listPods()).toEqual({ kind: 'unreadable', reason: 'unconfigured' });
    expect(await client.lookupByVolume('v')).toEqual({
      lookup: { kind: 'unreadable', reason: 'unconfigured' },
      list: { kind: 'unreadable', reason: 'unconfigured' },
    });
    expect(await client.createPod(REQUEST)).toEqual({
      httpStatus: 0,
      podId: null,
      retryAfterSeconds: null,
      detail: 'unconfigured',
    });
    for (const action of [
      client.startPod('abc123'),
      client.stopPod('abc123'),
      client.terminatePod('abc123'),
    ]) {
      expect(await action).toEqual({ ok: false, httpStatus: 0, detail: 'unconfigured' });
    }
    expect(await client.getActivity('abc123', 8000)).toBeNull();

    expect(mock.calls()).toHaveLength(0);
    await mock.finish();
  });

  it('still builds proxy URLs, which need no key', async () => {
    const mock = mockRunPod({ apiKey: null });
    expect(mock.client.proxyUrl('abc123', 8000)).toBe('http://proxy.test/proxy/abc123-8000');
    await mock.finish();
  });
});

describe('RunPodClient configuration', () => {
  it('trims the key (a mounted secret file often ends in a newline) before sending it', async () => {
    const mock = mockRunPod({ apiKey: `  ${FAKE_KEY}\n` });
    mock.api.intercept({ method: 'GET', path: '/v2/pods' }).reply(200, []);
    expect(mock.client.isConfigured).toBe(true);
    await mock.client.listPods();
    expect(onlyCall(mock).headers).toMatchObject({ authorization: `Bearer ${FAKE_KEY}` });
    await mock.finish();
  });

  it('tolerates a trailing slash on the base URL', async () => {
    const mock = mockRunPod({ baseUrl: `${BASE_URL}/` });
    mock.api.intercept({ method: 'GET', path: '/v2/pods' }).reply(200, []);
    await mock.client.listPods();
    expect(onlyCall(mock).url).toBe(`${API_ORIGIN}/v2/pods`);
    await mock.finish();
  });

  it('closes the connection pool it created: a request after close is refused and reaches no server', async () => {
    const requests: string[] = [];
    const server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = new RunPodClient({
      apiKey: FAKE_KEY,
      baseUrl: `http://127.0.0.1:${port}/v2`,
      proxyUrlTemplate: PROXY_TEMPLATE,
    });
    try {
      const before = await client.listPods();
      await client.close();
      const after = await client.listPods();

      expect(before).toEqual({ kind: 'listed', pods: [] });
      expect(after).toEqual({ kind: 'unreadable', reason: 'transport error: UND_ERR_DESTROYED' });
      expect(requests).toEqual(['GET /v2/pods']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('leaves an injected dispatcher open for its owner', async () => {
    const mock = mockRunPod();
    await mock.client.close();
    mock.api.intercept({ method: 'GET', path: '/v2/pods' }).reply(200, []);
    expect(await mock.client.listPods()).toEqual({ kind: 'listed', pods: [] });
    await mock.finish();
  });
});
