import {
  CONTRACT_API_KEY,
  ContractHarness,
  createRequest,
  PAST_TIMEOUT_MS,
  POD_PORT,
  VOLUME_ID,
} from './support/contract-harness';

const WRONG_KEY = 'rpa_WRONG_5b1e0a77c3d24f98_also-secret';
/** A RunPod problem detail that echoes the key back, the worst case for a leak. */
const echoingProblem = (status: number): Record<string, unknown> => ({
  title: 'Bad Request',
  status,
  detail: `API key ${CONTRACT_API_KEY} is not allowed to do this`,
});

describe('contract: the API key never leaves the Authorization header', () => {
  let h: ContractHarness;

  beforeAll(async () => {
    h = await ContractHarness.start();
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('every method, answered normally, refused, faulted, echoing the key or timing out: the key is in no call record, log line or returned value', async () => {
    const results: unknown[] = [];
    const record = async (result: Promise<unknown>): Promise<void> => {
      results.push(await result);
    };
    const running = await h.seedPod({ id: 'pod-running', status: 'RUNNING' });
    const exited = await h.seedPod({ id: 'pod-exited', status: 'EXITED' });

    // Answered normally, and refused by RunPod's own rules (404 / 409).
    await record(h.client.getCatalog());
    await record(h.client.lookupByVolume(VOLUME_ID));
    await record(h.client.observePod(running));
    await record(h.client.observePod('no-such-pod'));
    await record(h.client.createPod(createRequest()));
    await record(h.client.startPod(running));
    await record(h.client.getActivity(running, POD_PORT));
    await record(h.client.stopPod(running));
    await record(h.client.startPod(exited));
    await record(h.client.terminatePod('no-such-pod'));

    // Problem details that echo the key back.
    const problem = echoingProblem(400);
    await h.injectFault({ route: 'catalog', kind: 'status', status: 400, body: problem });
    await h.injectFault({ route: 'list', kind: 'status', status: 400, body: problem });
    await h.injectFault({ route: 'observe', kind: 'status', status: 400, body: problem });
    await h.injectFault({ route: 'create', kind: 'status', status: 400, body: problem });
    await h.injectFault({ route: 'action', kind: 'status', status: 400, body: problem });
    await h.injectFault({
      route: 'terminate',
      kind: 'status',
      status: 500,
      body: `upstream said ${CONTRACT_API_KEY}`,
    });
    await h.injectFault({ route: 'metrics', kind: 'status', status: 500, body: `key=${CONTRACT_API_KEY}` });
    await record(h.client.getCatalog());
    await record(h.client.lookupByVolume(VOLUME_ID));
    await record(h.client.observePod(running));
    const echoedCreate = h.client.createPod(createRequest());
    await record(echoedCreate);
    const echoedStart = h.client.startPod(exited);
    await record(echoedStart);
    await record(h.client.terminatePod(exited));
    await record(h.client.getActivity(running, POD_PORT));

    // Transport failures.
    await h.injectFault({ route: 'observe', kind: 'delay', delayMs: PAST_TIMEOUT_MS });
    await record(h.impatient.observePod(running));
    await h.waitForCall((call) => call.fault === 'delay');

    const everything = JSON.stringify(results);
    const logs = h.logs.text();
    const calls = await h.calls();
    expect(h.logs.messages('warn').length).toBeGreaterThan(5);
    expect(calls.length).toBeGreaterThan(15);
    // The key did travel — every call was authorized — but only in the header the simulator does not record.
    expect(calls.every((call) => call.authorized && call.bearerPresent)).toBe(true);
    expect(everything).not.toContain(CONTRACT_API_KEY);
    expect(logs).not.toContain(CONTRACT_API_KEY);
    expect(JSON.stringify(calls)).not.toContain(CONTRACT_API_KEY);
    expect(await h.stateText()).not.toContain(CONTRACT_API_KEY);
    // The echoed detail still reaches the caller, with the key cut out.
    expect((await echoedCreate).detail).toContain('is not allowed to do this');
    expect((await echoedStart).detail).toContain('is not allowed to do this');
  });

  // The simulator refuses a wrong key before any fault applies, so its 401 never echoes the key.
  it('a wrong key is kept out of call records, logs and returned values just the same', async () => {
    const wrong = h.newClient({ apiKey: WRONG_KEY });
    const results = [
      await wrong.createPod(createRequest()),
      await wrong.getCatalog(),
      await wrong.lookupByVolume(VOLUME_ID),
      await wrong.observePod('pod-x'),
      await wrong.stopPod('pod-x'),
    ];
    const calls = await h.calls();
    // One call per method, each refused; a check over no calls would pass on nothing.
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST /pods',
      'GET /catalog/gpus',
      'GET /pods',
      'GET /pods/pod-x',
      'POST /pods/pod-x/action',
    ]);
    expect(calls.every((call) => call.bearerPresent && !call.authorized && call.status === 401)).toBe(true);
    expect(h.logs.lines.length).toBeGreaterThan(0);
    expect(JSON.stringify(results)).not.toContain(WRONG_KEY);
    expect(h.logs.text()).not.toContain(WRONG_KEY);
    expect(JSON.stringify(calls)).not.toContain(WRONG_KEY);
  });
});
