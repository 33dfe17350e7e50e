import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type Redis from 'ioredis';
import { decodeKeptList, type IdlePhase } from '@podwarden/policies';
import {
  CONFIG,
  LOGGER,
  ProxyActivityStore,
  REDIS,
  REDIS_KEYS,
  RedisClock,
  RedisKeys,
  UsageStore,
} from '@podwarden/platform';
import { TEST_REDIS_URL, captureLogs, testConfig, useTestRedis } from '@podwarden/testing';
import type { HoldEnding } from './cold/held-requests';
import { HeldRequests } from './cold/held-requests';
import { PodReadiness, type Readiness } from './cold/pod-readiness';
import { ProxyWakes } from './cold/proxy-wakes';
import { ShedEstimates } from './cold/shed-estimates';
import { ActivityPublisher } from './forward/activity-publisher';
import { Forwarder } from './forward/forwarder';
import { ProxyMetrics } from './metrics/proxy-metrics';
import { ProxyController } from './proxy.controller';
import { ProxyRequestHandler } from './proxy-request.handler';
import { FORWARDER } from './proxy.tokens';
import { ModelListStore } from './reads/model-list-store';
import { ReadRequests } from './reads/read-requests';

const TOKEN = 'client-token-1';
const db = useTestRedis('proxy-handler');
const KEYS = new RedisKeys(db.prefix);
const VLLM_LIST = JSON.stringify({
  object: 'list',
  data: [{ id: 'Qwen/Qwen2.5-32B-Instruct-AWQ', object: 'model', owned_by: 'vllm', max_model_len: 32768 }],
});

/** What the pod saw of one request, and how many proxy leases were open while it ran. */
interface PodHit {
  readonly method: string;
  readonly url: string;
  readonly leasesDuring: number;
}

/**
 * A vLLM stand-in on a real port: answers the list, a completion, tokenize,
 * and whatever `override` says; it reads the proxy's lease set in Redis while
 * each request is in its hands, so a spec sees whether the proxy counted it.
 */
class FakePod {
  readonly hits: PodHit[] = [];
  override: ((req: IncomingMessage, res: ServerResponse) => boolean) | null = null;
  private server!: Server;

  constructor(private readonly redis: Redis) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for await (const chunk of req) void chunk;
    const leasesDuring = await this.redis.zcard(KEYS.proxyInFlight('qwen'));
    this.hits.push({ method: req.method ?? '', url: req.url ?? '', leasesDuring });
    if (this.override?.(req, res)) return;
    if (req.method === 'GET' && req.url?.startsWith('/v1/models')) return json(res, 200, VLLM_LIST);
    if (req.method === 'POST' && req.url === '/v1/chat/completions') {
      return json(res, 200, JSON.stringify({ object: 'chat.completion', choices: [] }));
    }
    if (req.method === 'POST' && req.url === '/v1/tokenize') return json(res, 200, '{"tokens":[1,2]}');
    json(res, 404, '{"detail":"Not Found"}');
  }
}

function json(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
}

/** Readiness, wakes and holds as the spec sets them; what the handler asked of them. */
class Cold {
  readiness: Readiness = { kind: 'cold', phase: 'Down' };
  ensured = 0;
  notServingMarked = 0;
  wakesForgotten = 0;
  readonly readinessFake = {
    read: () => Promise.resolve(this.readiness),
    forget: () => undefined,
    markNotServing: () => {
      this.notServingMarked += 1;
      this.readiness = { kind: 'cold', phase: 'Booting' };
      return Promise.resolve();
    },
  };
  readonly wakesFake = {
    ensure: () => {
      this.ensured += 1;
      return Promise.resolve('attempt-1');
    },
    forget: () => {
      this.wakesForgotten += 1;
    },
  };
  readonly heldFake = {
    count: () => 0,
    hold: (): Promise<HoldEnding> => Promise.resolve({ kind: 'timeout' }),
  };
  readonly estimatesFake = {
    estimate: () => Promise.resolve({ expectedReadyAt: null, retryAfterSeconds: 30 }),
  };

  ready(baseUrl: string): void {
    this.readiness = { kind: 'ready', baseUrl };
  }

  down(phase: IdlePhase = 'Down'): void {
    this.readiness = { kind: 'cold', phase };
  }
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: Record<string, unknown> | null;
}

describe(ProxyRequestHandler.name, () => {
  let pod: FakePod;
  let podUrl: string;
  let app: INestApplication;
  let proxyUrl: string;
  let cold: Cold;
  let metrics: ProxyMetrics;
  const logs = captureLogs();

  beforeAll(async () => {
    pod = new FakePod(db.redis);
    podUrl = await pod.start();
  });

  beforeEach(async () => {
    cold = new Cold();
    pod.hits.length = 0;
    pod.override = null;
    const config = testConfig({
      RIG_INFERENCE_TOKEN: TOKEN,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: db.prefix,
    });
    const module = await Test.createTestingModule({
      controllers: [ProxyController],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: LOGGER, useValue: logs.logger },
        { provide: REDIS, useValue: db.redis },
        { provide: REDIS_KEYS, useValue: KEYS },
        { provide: FORWARDER, useValue: new Forwarder(1000) },
        { provide: PodReadiness, useValue: cold.readinessFake },
        { provide: ProxyWakes, useValue: cold.wakesFake },
        { provide: HeldRequests, useValue: cold.heldFake },
        { provide: ShedEstimates, useValue: cold.estimatesFake },
        {
          provide: ProxyActivityStore,
          useValue: new ProxyActivityStore(db.redis, KEYS, new RedisClock(db.redis)),
        },
        { provide: UsageStore, useValue: new UsageStore(db.redis, KEYS, 28) },
        ActivityPublisher,
        ProxyMetrics,
        ModelListStore,
        ReadRequests,
        ProxyRequestHandler,
      ],
    }).compile();
    app = module.createNestApplication({ bodyParser: false, logger: false });
    await app.listen(0, '127.0.0.1');
    proxyUrl = await app.getUrl();
    metrics = app.get(ProxyMetrics);
  });

  afterEach(async () => {
    await app.get<Forwarder>(FORWARDER).close();
    await app.close();
  });

  afterAll(async () => {
    await pod.stop();
  });

  async function send(method: string, path: string, body?: unknown, token = TOKEN): Promise<Answer> {
    const response = await fetch(`${proxyUrl}/qwen${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: Record<string, unknown> | null;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = null;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  }

  const chat = { model: 'qwen', messages: [{ role: 'user', content: 'Hi' }] };

  async function outcome(name: string): Promise<number> {
    const values = (await metrics.requests.get()).values;
    return values.find((v) => v.labels.pod === 'qwen' && v.labels.outcome === name)?.value ?? 0;
  }

  /**
   * The proxy's activity record of the pod, as the idle monitor reads it: both keys in one MULTI, since
   * the end lands in both at once and two separate reads can straddle it (in flight 1, an end written).
   */
  async function activity(): Promise<{ inFlight: number; lastEnded: string | null }> {
    const answers = await db.redis
      .multi()
      .zcard(KEYS.proxyInFlight('qwen'))
      .get(KEYS.proxyLastEnded('qwen'))
      .exec();
    if (answers === null || answers.some(([error]) => error !== null))
      throw new Error('activity read failed');
    return { inFlight: answers[0][1] as number, lastEnded: answers[1][1] as string | null };
  }

  /** The activity once a last end is written (the test's deadline bounds the wait). */
  async function activityEnded(): Promise<{ inFlight: number; lastEnded: string | null }> {
    for (;;) {
      const seen = await activity();
      if (seen.lastEnded !== null) return seen;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function usesRecorded(): Promise<Array<{ start: number; end: number }>> {
    return (await new UsageStore(db.redis, KEYS, 28).read('qwen', 0)).uses.map((u) => ({ ...u }));
  }

  async function keptList(): Promise<string | null> {
    return decodeKeptList(await db.redis.get(KEYS.modelList('qwen')))?.body ?? null;
  }

  describe('a cold pod', () => {
    it('GET /v1/models with no list kept: 503 with Retry-After, no wake, the pod not asked', async () => {
      const answer = await send('GET', '/v1/models');
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('30');
      expect(answer.body).toMatchObject({
        error: { code: 'pod_not_ready', type: 'pod_not_ready' },
        pod: 'qwen',
        phase: 'Down',
        reason: 'models-unknown',
        retryAfterSeconds: 30,
      });
      expect(cold.ensured).toBe(0);
      expect(pod.hits).toEqual([]);
      expect(await outcome('not-woken')).toBe(1);
    });

    it('GET /v1/models with a list kept: 200 with that list byte for byte and its Age, no wake', async () => {
      await app
        .get(ModelListStore)
        .keep(app.get(CONFIG).pods[0], { body: VLLM_LIST, servedAt: Date.now() - 90_000 });
      for (const path of ['/v1/models', '/v1/models/', '/v1/models?limit=1']) {
        const answer = await send('GET', path);
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
        expect(answer.text).toBe(VLLM_LIST);
        expect(Number(answer.headers.get('age'))).toBeGreaterThanOrEqual(90);
      }
      expect(cold.ensured).toBe(0);
      expect(pod.hits).toEqual([]);
      expect(await outcome('listed')).toBe(3);
      expect(await activity()).toEqual({ inFlight: 0, lastEnded: null });
    });

    it.each<[string, string]>([
      ['GET', '/v1/models/qwen'],
      ['POST', '/v1/tokenize'],
      ['OPTIONS', '/v1/chat/completions'],
      ['DELETE', '/v1/responses/r1'],
    ])('%s %s: 503 with Retry-After naming why, no wake', async (method, path) => {
      cold.down('Booting');
      const answer = await send(method, path, method === 'POST' ? { prompt: 'x' } : undefined);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('30');
      expect(answer.body).toMatchObject({ phase: 'Booting', reason: 'not-model-work' });
      expect(cold.ensured).toBe(0);
    });

    it('POST /v1/chat/completions wakes it (and is shed here: hold 0)', async () => {
      const answer = await send('POST', '/v1/chat/completions', chat);
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ reason: 'hold-disabled' });
      expect(cold.ensured).toBe(1);
    });

    it('an unknown POST wakes it (fail closed: it may be model work)', async () => {
      await send('POST', '/v1/some/new/inference', { input: 'x' });
      expect(cold.ensured).toBe(1);
    });

    it('a listing without the client token is 401 before anything else', async () => {
      const answer = await send('GET', '/v1/models', undefined, 'wrong');
      expect(answer.status).toBe(401);
      expect(cold.ensured).toBe(0);
    });
  });

  describe('a ready pod', () => {
    beforeEach(() => cold.ready(podUrl));

    it('GET /v1/models is forwarded without a lease or a last end, and the list is kept for when it is cold', async () => {
      const answer = await send('GET', '/v1/models?x=1');
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(VLLM_LIST);
      expect(pod.hits).toEqual([{ method: 'GET', url: '/v1/models?x=1', leasesDuring: 0 }]);
      expect(await activity()).toEqual({ inFlight: 0, lastEnded: null });
      expect(await usesRecorded()).toEqual([]);
      expect(await keptList()).toBe(VLLM_LIST);
      expect(await outcome('forwarded')).toBe(1);

      cold.down();
      const later = await send('GET', '/v1/models');
      expect(later).toMatchObject({ status: 200, text: VLLM_LIST });
      expect(pod.hits).toHaveLength(1);
      expect(cold.ensured).toBe(0);
    });

    it('other reads are forwarded without a lease too', async () => {
      expect((await send('POST', '/v1/tokenize', { prompt: 'x' })).status).toBe(200);
      expect((await send('GET', '/v1/models/qwen')).status).toBe(200);
      expect(pod.hits.map((h) => h.leasesDuring)).toEqual([0, 0]);
      expect(await activity()).toEqual({ inFlight: 0, lastEnded: null });
    });

    it('model work takes a lease while forwarded and moves the last end (what the idle monitor counts)', async () => {
      const sentAt = Date.now();
      const answer = await send('POST', '/v1/chat/completions', chat);
      expect(answer.status).toBe(200);
      expect(pod.hits).toEqual([{ method: 'POST', url: '/v1/chat/completions', leasesDuring: 1 }]);
      // The end is written once the answer has gone out: wait for it, then judge what it left.
      const after = await activityEnded();
      expect(after.inFlight).toBe(0);
      expect(Number(after.lastEnded)).toBeGreaterThan(0);
      // ...and is recorded as one use, from its arrival to its end, in the usage record.
      const [use, ...more] = await usesRecorded();
      expect(more).toEqual([]);
      expect(use.start).toBeGreaterThanOrEqual(sentAt);
      expect(use.end).toBeGreaterThanOrEqual(use.start);
      expect(use.end).toBeLessThanOrEqual(Date.now());
    });

    it.each<[string, number, string]>([
      ['an empty list', 200, JSON.stringify({ object: 'list', data: [] })],
      ['an error', 500, JSON.stringify({ object: 'error', message: 'boom' })],
      ['a list over the size bound', 200, bigList()],
    ])('%s is forwarded as served but not kept; the kept list stays', async (_what, status, body) => {
      await app.get(ModelListStore).keep(app.get(CONFIG).pods[0], { body: VLLM_LIST, servedAt: 1 });
      pod.override = (_req, res) => {
        json(res, status, body);
        return true;
      };
      const answer = await send('GET', '/v1/models');
      expect(answer).toMatchObject({ status, text: body });
      expect(await keptList()).toBe(VLLM_LIST);
    });

    it('a listing the pod edge refuses (not serving): the pod is marked, answered from the kept list, no wake', async () => {
      await app.get(ModelListStore).keep(app.get(CONFIG).pods[0], { body: VLLM_LIST, servedAt: Date.now() });
      pod.override = (_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>502 Bad Gateway</html>');
        return true;
      };
      const answer = await send('GET', '/v1/models');
      expect(answer).toMatchObject({ status: 200, text: VLLM_LIST });
      expect(cold.notServingMarked).toBe(1);
      expect(cold.wakesForgotten).toBe(1);
      expect(cold.ensured).toBe(0);
    });
  });
});

/** A valid list larger than MAX_MODEL_LIST_BYTES. */
function bigList(): string {
  const data = Array.from({ length: 2000 }, (_, i) => ({ id: `model-${i}`, object: 'model', owned_by: 'x' }));
  return JSON.stringify({ object: 'list', data });
}
