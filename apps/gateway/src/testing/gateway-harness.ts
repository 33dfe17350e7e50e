import type { INestApplication } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import { Test } from '@nestjs/testing';
import type { Queue } from 'bullmq';
import { parseConfig, type PodwardenConfig } from '@podwarden/policies';
import {
  NestPinoLogger,
  RUNPOD_CLIENT,
  StatusSnapshotStore,
  WAKE_QUEUE,
  type WakeJobData,
  type WakeJobResult,
} from '@podwarden/platform';
import {
  FakeRunPod,
  OpenApiAnswers,
  OUR_VOLUME,
  TEST_REDIS_URL,
  captureLogs,
  deletePrefix,
  uniqueTestPrefix,
  type CapturedLogs,
  type OpenApiDocument,
} from '@podwarden/testing';
import { configureGateway } from '../configure-gateway';
import { GatewayModule } from '../gateway.module';
import { SECRETS } from './secret-scan';

export interface HarnessOptions {
  /** Merged over a configured single pod `qwen` on volume OUR_VOLUME with every secret set. */
  readonly env?: Record<string, string | undefined>;
  readonly podsConfigText?: string;
  /** Provider overrides besides the RunPod client (e.g. a failing record store). */
  readonly overrides?: ReadonlyArray<{ readonly token: unknown; readonly value: unknown }>;
}

export interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly headers: Headers;
  readonly text: string;
  // Response bodies are whatever the route sent; specs read the fields they assert.
  readonly body: Record<string, unknown>;
}

/** What one stretch of a spec made the gateway answer and log, for the secret scan. */
export interface Produced {
  readonly answers: readonly Answer[];
  readonly logLines: readonly string[];
}

export interface GatewayHarness {
  readonly url: string;
  readonly app: INestApplication;
  readonly fake: FakeRunPod;
  readonly config: PodwardenConfig;
  readonly logs: CapturedLogs;
  /** The gateway's own `wake` queue (the one POST …/start adds to). */
  readonly wakeQueue: Queue<WakeJobData, WakeJobResult>;
  /** A `body` is sent as JSON (content-type application/json); a string body is sent as is. */
  request(method: string, path: string, headers?: Record<string, string>, body?: unknown): Promise<Answer>;
  /** A fresh fake RunPod and no status snapshot: the next GET reads the fake (as after a write). */
  resetRunPod(): Promise<void>;
  /** Runs `work` and returns only the answers and log lines it produced. */
  produced(work: () => Promise<unknown>): Promise<Produced>;
  close(): Promise<void>;
}

export const OPERATOR = { 'X-Rig-Operator-Token': SECRETS.RIG_OPERATOR_TOKEN };
export const WAKER = { 'X-Rig-Operator-Token': SECRETS.RIG_WAKE_TOKEN };

export function testConfig(prefix: string, options: HarnessOptions = {}): PodwardenConfig {
  const env: Record<string, string | undefined> = {
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    RUNPOD_VOLUME_ID: OUR_VOLUME,
    RUNPOD_TEMPLATE_ID: 'tpl-1',
    WAKE_REQUEST_WAIT_SECONDS: '5',
    ...SECRETS,
    ...options.env,
  };
  const parsed = parseConfig(env, options.podsConfigText ?? null);
  if (!parsed.ok) throw new Error(`test config refused: ${parsed.error}`);
  return parsed.config;
}

/** The gateway as main.ts builds it, on a port of its own, with the kit's fake RunPod and log capture. */
export async function startGateway(label: string, options: HarnessOptions = {}): Promise<GatewayHarness> {
  const prefix = uniqueTestPrefix(`gw-${label}`);
  const config = testConfig(prefix, options);
  const logs = captureLogs('debug');
  const fake = new FakeRunPod();
  let builder = Test.createTestingModule({
    imports: [GatewayModule.forRoot({ config, logger: logs.logger })],
  })
    .overrideProvider(RUNPOD_CLIENT)
    .useValue(fake);
  for (const override of options.overrides ?? []) {
    builder = builder.overrideProvider(override.token).useValue(override.value);
  }
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication({ logger: new NestPinoLogger(logs.logger) });
  app.enableShutdownHooks();
  configureGateway(app, config, logs.logger);
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const answers: Answer[] = [];
  let openApi: OpenApiAnswers | null = null;

  // Every answer a spec receives must match the OpenAPI document the gateway serves.
  const request = async (
    method: string,
    path: string,
    headers: Record<string, string> = {},
    sent?: unknown,
  ) => {
    const answer = await send(url, method, path, headers, sent);
    answers.push(answer);
    openApi ??= new OpenApiAnswers((await (await fetch(`${url}/docs-json`)).json()) as OpenApiDocument);
    const mismatches = openApi.check({ method, path, ...answer });
    if (mismatches.length > 0) throw new Error(`answer does not match /docs-json:\n${mismatches.join('\n')}`);
    return answer;
  };
  return {
    url,
    app,
    fake,
    config,
    logs,
    wakeQueue: app.get<Queue<WakeJobData, WakeJobResult>>(getQueueToken(WAKE_QUEUE)),
    request,
    async resetRunPod() {
      fake.reset();
      const snapshots = app.get(StatusSnapshotStore);
      await Promise.all(config.pods.map((pod) => snapshots.invalidate(pod.name)));
    },
    async produced(work) {
      const [firstAnswer, firstLine] = [answers.length, logs.raw.length];
      await work();
      return { answers: answers.slice(firstAnswer), logLines: logs.raw.slice(firstLine) };
    },
    async close() {
      await app.close();
      await deletePrefix(prefix);
    },
  };
}

async function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  sent: unknown,
): Promise<Answer> {
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
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    headers: response.headers,
    text,
    body: parseBody(text),
  };
}

function parseBody(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Polls until `check` holds: specs wait for events, not for time. The deadline
 * is far beyond what an in-process event needs, yet inside jest's own test
 * timeout, so a miss fails with a message that names the event.
 */
export async function until(check: () => boolean, what: string, timeoutMs = 4_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A promise a spec resolves when it chooses: a held read, a held wake. */
export function deferred(): { promise: Promise<void>; release: () => void } {
  let release = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}
