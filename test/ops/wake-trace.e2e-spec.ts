import { Test, type TestingModule } from '@nestjs/testing';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { parseConfig } from '@podwarden/policies';
import { startTracing, type Tracing } from '@podwarden/platform';
import { TEST_REDIS_URL, captureLogs } from '@podwarden/testing';
import { OPERATOR, startGateway, type GatewayHarness } from '../../apps/gateway/src/testing/gateway-harness';
import { SECRETS } from '../../apps/gateway/src/testing/secret-scan';
import { WakerModule } from '../../apps/waker/src/waker.module';
import { AppProcess, eventually } from '../support/app-process';
import { freePort } from '../support/free-port';
import { VOLUME_ID } from '../support/stack';

/**
 * One trace per wake, from the gateway's HTTP request through the queue and
 * the waker to each RunPod call, with no credential in any span. In one
 * process: the gateway and the waker as Nest apps (their real modules, the
 * real queue on Redis, the waker's real RunPod client over undici to the
 * simulator, a separate process), tracing started the way main.ts starts it
 * but exporting to memory. Cross-process propagation is the same mechanism
 * (the context travels in the job's metadata through Redis).
 */
describe('a wake traced end to end', () => {
  const memory = new InMemorySpanExporter();
  let tracing: Tracing | null;
  let sim: AppProcess;
  let simUrl: string;
  let gateway: GatewayHarness;
  let waker: TestingModule;

  beforeAll(async () => {
    tracing = startTracing('test', { exporter: memory, env: { ...SECRETS } });
    const simPort = await freePort();
    simUrl = `http://127.0.0.1:${simPort}`;
    sim = AppProcess.start(
      'runpod-sim',
      { SIM_PORT: String(simPort), SIM_HOST: '127.0.0.1', SIM_API_KEY: SECRETS.RUNPOD_API_KEY },
      'trace-sim',
    );
    await eventually(
      async () => ((await fetch(`${simUrl}/_sim/health`)).ok ? true : undefined),
      15_000,
      'sim up',
    );
    const seeded = await fetch(`${simUrl}/_sim/pods`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ volumeId: VOLUME_ID, status: 'RUNNING', vllmReady: true }),
    });
    expect(seeded.status).toBe(201);

    gateway = await startGateway('trace', { env: { RUNPOD_VOLUME_ID: VOLUME_ID } });
    const parsed = parseConfig(
      {
        ...SECRETS,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: gateway.config.redis.prefix,
        RUNPOD_VOLUME_ID: VOLUME_ID,
        RUNPOD_TEMPLATE_ID: 'tpl-1',
        RUNPOD_V2_BASE_URL: `${simUrl}/v2`,
        RUNPOD_PROXY_URL_TEMPLATE: `${simUrl}/proxy/{podId}-{port}`,
        WAKE_POLL_INTERVAL_MS: '50',
      },
      null,
    );
    if (!parsed.ok) throw new Error(parsed.error);
    waker = await Test.createTestingModule({
      imports: [WakerModule.forRoot({ config: parsed.config, logger: captureLogs('info').logger })],
    }).compile();
    await waker.init();
  });

  afterAll(async () => {
    await waker?.close();
    await gateway?.close();
    await sim?.stop();
    await tracing?.shutdown();
  });

  it('one trace spans the start request, the queue add, the wake job and each RunPod call, with no secret', async () => {
    memory.reset();
    const answer = await gateway.request('POST', '/api/pods/qwen/start', OPERATOR);
    expect(answer.body).toMatchObject({ outcome: 'AlreadyRunning' });

    const spans = await eventually(
      async () => {
        const all = memory.getFinishedSpans();
        return all.some((s) => s.name.startsWith('POST /api/pods')) &&
          all.some((s) => isRunPodCall(s, simUrl))
          ? all
          : undefined;
      },
      10_000,
      'the request and RunPod spans',
    );
    const request = spans.find((s) => s.name === 'POST /api/pods/:name/start');
    expect(request).toBeDefined();
    const traceId = request!.spanContext().traceId;
    const inTrace = spans.filter((s) => s.spanContext().traceId === traceId);
    const runpodCalls = inTrace.filter((s) => isRunPodCall(s, simUrl));

    // The queue add (gateway) and the job's processing (waker) are in the request's trace…
    expect(inTrace.some((s) => /add/i.test(s.name) && s.name.includes('wake'))).toBe(true);
    const processing = inTrace.find((s) => /process/i.test(s.name) && s.name.includes('wake'));
    expect(processing).toBeDefined();
    // …and every RunPod call the wake made descends from the request through the job.
    expect(runpodCalls.map((s) => `${String(s.attributes['http.request.method'])} ${pathOf(s)}`)).toEqual(
      expect.arrayContaining(['GET /v2/pods']),
    );
    for (const call of runpodCalls) {
      expect(ancestors(call, inTrace)).toEqual(expect.arrayContaining([processing!.name, request!.name]));
    }
    // Every RunPod call of this wake is in this trace (none started a trace of its own).
    expect(
      spans.filter((s) => isRunPodCall(s, simUrl)).every((s) => s.spanContext().traceId === traceId),
    ).toBe(true);

    const exported = JSON.stringify(
      spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events })),
    );
    for (const secret of Object.values(SECRETS)) expect(exported).not.toContain(secret);
    expect(exported.toLowerCase()).not.toContain('authorization');
    expect(exported.toLowerCase()).not.toContain('x-rig-operator-token');
  });
});

function isRunPodCall(span: ReadableSpan, simUrl: string): boolean {
  return String(span.attributes['url.full'] ?? '').startsWith(`${simUrl}/v2/`);
}

function pathOf(span: ReadableSpan): string {
  return new URL(String(span.attributes['url.full'])).pathname;
}

/** The names of a span's ancestors within the trace, nearest first. */
function ancestors(span: ReadableSpan, trace: readonly ReadableSpan[]): string[] {
  const names: string[] = [];
  let parentId = span.parentSpanContext?.spanId;
  while (parentId !== undefined) {
    const parent = trace.find((s) => s.spanContext().spanId === parentId);
    if (parent === undefined) break;
    names.push(parent.name);
    parentId = parent.parentSpanContext?.spanId;
  }
  return names;
}
