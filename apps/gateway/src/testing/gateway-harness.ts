import type { INestApplication } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { Test } from '@nestjs/testing';
import Redis from 'ioredis';
import pino from 'pino';
import { parseConfig, type PodwardenConfig } from '@podwarden/policies';
import {
  NestPinoLogger,
  REDACTED_PATHS,
  RUNPOD_CLIENT,
  WAKE_QUEUE,
  type AppLogger,
  type WakeJobData,
  type WakeJobResult,
} from '@podwarden/platform';
import { configureGateway } from '../configure-gateway';
import { STATUS_GATHER_MS } from '../status/status-gather.constant';
import { GatewayModule } from '../gateway.module';
import { FakeRunPodClient } from './fake-runpod-client';
import { deleteKeysUnder } from '@podwarden/testing';

export const TEST_REDIS_URL = 'redis://127.0.0.1:6379';

/** Secrets every harness configures, so a spec can assert none of them ever leaves the process. */
export const SECRETS = {
  RUNPOD_API_KEY: 'rk-test-api-key-must-never-leak',
  RIG_OPERATOR_TOKEN: 'op-test-token-must-never-leak',
  RIG_WAKE_TOKEN: 'wake-test-token-must-never-leak',
} as const;

export interface HarnessOptions {
  /** Merged over a configured single pod `qwen` on volume `vol-qwen` with every secret set. */
  readonly env?: Record<string, string | undefined>;
  readonly podsConfigText?: string;
  /** Provider overrides besides the RunPod client (e.g. a failing record store). */
  readonly overrides?: ReadonlyArray<{ readonly token: unknown; readonly value: unknown }>;
  /** How long a GET burst gathers before reading (production: 100 ms); 0 by default in specs. */
  readonly statusGatherMs?: number;
}

export interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly headers: Headers;
  readonly text: string;
  // Response bodies are whatever the route sent; specs read the fields they assert.
  readonly body: Record<string, unknown>;
}

export interface GatewayHarness {
  readonly url: string;
  readonly app: INestApplication;
  readonly fake: FakeRunPodClient;
  readonly config: PodwardenConfig;
  readonly logs: string[];
  /** The gateway's own `wake` queue (the one POST …/start adds to). */
  readonly wakeQueue: Queue<WakeJobData, WakeJobResult>;
  /** Every response body this harness received, for the "no secret leaves" check. */
  readonly bodies: string[];
  /** A `body` is sent as JSON (content-type application/json); a string body is sent as is. */
  request(method: string, path: string, headers?: Record<string, string>, body?: unknown): Promise<Answer>;
  close(): Promise<void>;
}

let harnessCount = 0;

/** A unique key prefix per harness: specs share one Redis and run in parallel. */
export function uniquePrefix(label: string): string {
  harnessCount += 1;
  return `pw-test-gw-${label}-${process.pid}-${Date.now()}-${harnessCount}`;
}

export function testConfig(prefix: string, options: HarnessOptions = {}): PodwardenConfig {
  const env: Record<string, string | undefined> = {
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    RUNPOD_VOLUME_ID: 'vol-qwen',
    RUNPOD_TEMPLATE_ID: 'tpl-1',
    WAKE_REQUEST_WAIT_SECONDS: '5',
    ...SECRETS,
    ...options.env,
  };
  const parsed = parseConfig(env, options.podsConfigText ?? null);
  if (!parsed.ok) throw new Error(`test config refused: ${parsed.error}`);
  return parsed.config;
}

export async function startGateway(label: string, options: HarnessOptions = {}): Promise<GatewayHarness> {
  const prefix = uniquePrefix(label);
  const config = testConfig(prefix, options);
  const logs: string[] = [];
  const bodies: string[] = [];
  const logger: AppLogger = pino(
    { name: 'gateway', level: 'debug', redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' } },
    { write: (line: string) => void logs.push(line) },
  );
  const fake = new FakeRunPodClient();
  let builder = Test.createTestingModule({ imports: [GatewayModule.forRoot({ config, logger })] })
    .overrideProvider(RUNPOD_CLIENT)
    .useValue(fake)
    // No gathering by default: specs stay fast, and the in-flight sharing is what most of them test.
    .overrideProvider(STATUS_GATHER_MS)
    .useValue(options.statusGatherMs ?? 0);
  for (const override of options.overrides ?? []) {
    builder = builder.overrideProvider(override.token).useValue(override.value);
  }
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication({ logger: new NestPinoLogger(logger) });
  app.enableShutdownHooks();
  configureGateway(app, config, logger);
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');

  return {
    url,
    app,
    fake,
    config,
    logs,
    bodies,
    wakeQueue: app.get<Queue<WakeJobData, WakeJobResult>>(getQueueToken(WAKE_QUEUE)),
    async request(method, path, headers = {}, sent?: unknown) {
      const init: RequestInit =
        sent === undefined
          ? { method, headers }
          : {
              method,
              headers: { 'Content-Type': 'application/json', ...headers },
              body: typeof sent === 'string' ? sent : JSON.stringify(sent),
            };
      const response = await fetch(`${url}${path}`, init);
      const text = await response.text();
      bodies.push(text);
      const body = parseBody(text);
      return {
        status: response.status,
        contentType: response.headers.get('content-type') ?? '',
        headers: response.headers,
        text,
        body,
      };
    },
    async close() {
      await app.close();
      await deleteKeys(prefix);
    },
  };
}

/** SCAN + DEL of everything under a test prefix. */
export async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    await deleteKeysUnder(redis, prefix);
  } finally {
    await redis.quit();
  }
}

/** Asserts no configured secret appears in any response body or captured log line. */
export function leakedSecrets(harness: Pick<GatewayHarness, 'bodies' | 'logs'>): string[] {
  const everything = [...harness.bodies, ...harness.logs].join('\n');
  return Object.entries(SECRETS)
    .filter(([, secret]) => everything.includes(secret))
    .map(([name]) => name);
}

export const OPERATOR = { 'X-Rig-Operator-Token': SECRETS.RIG_OPERATOR_TOKEN };
export const WAKER = { 'X-Rig-Operator-Token': SECRETS.RIG_WAKE_TOKEN };

function parseBody(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
