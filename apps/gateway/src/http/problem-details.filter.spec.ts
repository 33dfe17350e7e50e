import { PodStatusService } from '../status/pod-status.service';
import { startGateway, type GatewayHarness } from '../testing/gateway-harness';

const INTERNALS = 'boom: cannot read /srv/podwarden/internal.db';

describe('an unexpected error while serving a request', () => {
  let gw: GatewayHarness;
  let thrown: unknown = new Error(INTERNALS);
  beforeAll(async () => {
    gw = await startGateway('filter-500', {
      overrides: [{ token: PodStatusService, value: { read: () => Promise.reject(thrown) } }],
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('is a bare 500 problem: no message or stack reaches the client, both are logged at Error', async () => {
    thrown = new Error(INTERNALS);
    const answer = await gw.request('GET', '/api/pods/qwen');

    expect(answer.status).toBe(500);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: 'unexpected error; see the gateway log',
      name: 'qwen',
    });
    expect(answer.text).not.toContain('boom');
    expect(answer.text).not.toContain('.ts:');
    const [logged] = gw.logs.lines.filter((line) => line.msg === 'unexpected error while serving a request');
    expect(logged).toMatchObject({ level: 50, err: INTERNALS });
    expect(String(logged.stack)).toContain('problem-details.filter.spec.ts');
  });

  it('something thrown that is not an Error is a 500 problem too', async () => {
    thrown = 'a bare string';
    const answer = await gw.request('GET', '/api/pods');
    expect(answer.status).toBe(500);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.text).not.toContain('a bare string');
  });
});
