import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '../support/app-process';
import { seedPod } from '../support/sim-admin';
import { leakedSecrets } from '../support/secret-forms';
import { Stack } from '../support/stack';

/** One span as OTLP/JSON carries it, with the service that exported it. */
interface ExportedSpan {
  readonly service: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly name: string;
  readonly attributes: Record<string, unknown>;
}

interface OtlpAttribute {
  readonly key: string;
  readonly value: Record<string, unknown>;
}

interface OtlpTraces {
  readonly resourceSpans?: Array<{
    readonly resource?: { readonly attributes?: OtlpAttribute[] };
    readonly scopeSpans?: Array<{
      readonly spans?: Array<{ traceId: string; spanId: string; name: string; attributes?: OtlpAttribute[] }>;
    }>;
  }>;
}

/** A stand-in OTLP/HTTP collector: keeps every body posted to /v1/traces as received. */
class TraceReceiver {
  readonly bodies: string[] = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<TraceReceiver> {
    const server = createServer();
    const receiver = new TraceReceiver(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.url === '/v1/traces') receiver.bodies.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  spans(): ExportedSpan[] {
    return this.bodies.flatMap((body) =>
      ((JSON.parse(body) as OtlpTraces).resourceSpans ?? []).flatMap((resource) => {
        const service = String(attributesOf(resource.resource?.attributes)['service.name']);
        return (resource.scopeSpans ?? []).flatMap((scope) =>
          (scope.spans ?? []).map((span) => ({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            name: span.name,
            attributes: attributesOf(span.attributes),
          })),
        );
      }),
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function attributesOf(attributes: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, Object.values(value)[0]]));
}

/**
 * The trace of one wake across processes, as an operator's collector sees it:
 * the built gateway and waker, each exporting OTLP over HTTP/JSON (the
 * standard OTEL_EXPORTER_OTLP_PROTOCOL) to a receiver in this spec. The
 * context crosses from one process to the other only through the job in Redis.
 */
describe('a wake traced across the gateway and waker processes', () => {
  let receiver: TraceReceiver;
  let stack: Stack;

  beforeAll(async () => {
    receiver = await TraceReceiver.start();
    stack = await Stack.start({
      name: 'trace-procs',
      wakers: 1,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        // Export soon after each span ends rather than every 5 s.
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('one trace id holds the start request (gateway) and the wake job with its RunPod calls (waker), with no secret exported', async () => {
    await seedPod(stack, { status: 'RUNNING', vllmReady: true });
    const answer = await stack.api('POST', '/api/pods/qwen/start', { token: 'operator' });
    expect(answer.body).toMatchObject({ outcome: 'AlreadyRunning' });

    const isRunPodCall = (s: ExportedSpan) =>
      String(s.attributes['url.full']).startsWith(`${stack.simUrl}/v2/`);
    const { request, inTrace } = await eventually(
      async () => {
        const spans = receiver.spans();
        const request = spans.find(
          (s) => s.service === 'podwarden-gateway' && s.name === 'POST /api/pods/:name/start',
        );
        if (request === undefined) return undefined;
        const inTrace = spans.filter((s) => s.traceId === request.traceId);
        return inTrace.some((s) => s.service === 'podwarden-waker' && isRunPodCall(s))
          ? { request, inTrace }
          : undefined;
      },
      30_000,
      "the request's span and the waker's RunPod calls exported",
    );

    const byService = (service: string) => inTrace.filter((s) => s.service === service);
    expect(byService('podwarden-gateway').some((s) => /add/i.test(s.name) && s.name.includes('wake'))).toBe(
      true,
    );
    expect(byService('podwarden-waker').some((s) => /process/i.test(s.name) && s.name.includes('wake'))).toBe(
      true,
    );
    expect(
      byService('podwarden-waker')
        .filter(isRunPodCall)
        .map((s) => s.attributes['http.request.method']),
    ).toContain('GET');
    expect(request.traceId).toMatch(/^[0-9a-f]{32}$/);
    // The waker made no RunPod call outside this wake's trace.
    const wakerCalls = receiver.spans().filter((s) => s.service === 'podwarden-waker' && isRunPodCall(s));
    expect(wakerCalls.every((s) => s.traceId === request.traceId)).toBe(true);

    const exported = receiver.bodies.join('\n');
    expect(leakedSecrets(exported)).toEqual([]);
    expect(exported.toLowerCase()).not.toContain('authorization');
    expect(exported.toLowerCase()).not.toContain('x-rig-operator-token');
  });
});
