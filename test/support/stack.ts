import { OpenApiAnswers, type OpenApiDocument } from '@podwarden/testing';
import { type AppName } from './app-process';
import { StackLauncher, type LaunchOptions } from './stack-launcher';
import { SseClient } from './sse-client';
import { deletePrefix } from './redis-cleanup';
import { recordExchange } from './exchange-log';
import {
  REDIS_URL,
  TEST_API_KEY,
  TEST_INFERENCE_TOKEN,
  TEST_OPERATOR_TOKEN,
  TEST_WAKE_TOKEN,
  uniquePrefix,
} from './test-env';

/**
 * How long an app may take to come up. Generous on purpose: on a loaded 2-core
 * machine a NestJS app has been seen to need more than 20 s, and a deadline is
 * only a bound on a hang, never a measure of speed.
 */
const APP_START_DEADLINE_MS = 60_000;

export { TEMPLATE_ID, VOLUME_ID, type AppLaunch } from './stack-launcher';
export type StackOptions = LaunchOptions;

export interface HttpAnswer<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
  readonly contentType: string;
  readonly text: string;
}

/**
 * The system under test as real processes (StackLauncher), with the specs' credentials and fast wake
 * tunings, and requests whose gateway answers are checked against its own OpenAPI document.
 */
export class Stack extends StackLauncher {
  /** The gateway's OpenAPI document (fetched on the first api() call); every api() answer must match it. */
  openApi: OpenApiAnswers | null = null;

  static async start(options: StackOptions): Promise<Stack> {
    const stack = new Stack(options, {
      prefix: uniquePrefix(options.name),
      redisUrl: REDIS_URL,
      apiKey: TEST_API_KEY,
      operatorToken: TEST_OPERATOR_TOKEN,
      wakeToken: TEST_WAKE_TOKEN,
      appEnv: {
        RIG_INFERENCE_TOKEN: TEST_INFERENCE_TOKEN,
        WAKE_POLL_INTERVAL_MS: '100',
        WAKE_MAX_POLLS: '100',
        WAKE_REQUEST_WAIT_SECONDS: '20',
        WAKE_MAX_RETRY_AFTER_SECONDS: '1',
        LOG_LEVEL: 'debug',
      },
      startDeadlineMs: APP_START_DEADLINE_MS,
      cleanup: (prefix) => deletePrefix(prefix).catch(() => undefined),
    });
    await stack.begin();
    return stack;
  }

  /** A request to the gateway; `token` 'operator' | 'wake' | none. */
  async api<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: { token?: 'operator' | 'wake' | string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<HttpAnswer<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token === 'operator') headers['X-Rig-Operator-Token'] = TEST_OPERATOR_TOKEN;
    else if (options.token === 'wake') headers['X-Rig-Operator-Token'] = TEST_WAKE_TOKEN;
    else if (options.token) headers['X-Rig-Operator-Token'] = options.token;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${this.gatewayUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const seen = await answer<T>(response, `${method} ${path}`);
    await this.checkAgainstDocument(method, path, seen);
    return seen;
  }

  /** Opens GET …/events on this gateway (or another replica's `baseUrl`); its opening answer is checked like api()'s. */
  async eventStream(
    path: string,
    lastEventId: string | null = null,
    baseUrl = this.gatewayUrl,
  ): Promise<SseClient> {
    const client = await SseClient.open(`${baseUrl}${path}`, lastEventId);
    await this.checkAgainstDocument('GET', path, { ...client.opening, body: null, text: '' });
    return client;
  }

  /** Fails the calling test when a gateway answer does not match the gateway's own /docs-json. */
  private async checkAgainstDocument(method: string, path: string, seen: HttpAnswer<unknown>): Promise<void> {
    if (this.openApi === null) {
      const document: unknown = await (await fetch(`${this.gatewayUrl}/docs-json`)).json();
      this.openApi = new OpenApiAnswers(document as OpenApiDocument);
    }
    const mismatches = this.openApi.check({ method, path, ...seen });
    if (mismatches.length > 0) throw new Error(`answer does not match /docs-json:\n${mismatches.join('\n')}`);
  }

  /** A request to the simulator's admin API (/_sim...) or its REST/proxy routes. */
  async simRequest<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<HttpAnswer<T>> {
    const response = await fetch(`${this.simUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return answer<T>(response, `${method} sim${path}`);
  }
}

async function answer<T>(response: Response, request: string): Promise<HttpAnswer<T>> {
  const text = await response.text();
  recordExchange(request, response.status, response.headers, text);
  let body: unknown;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    body = text;
  }
  return {
    status: response.status,
    body: body as T,
    contentType: response.headers.get('content-type') ?? '',
    text,
  };
}

export type { AppName };
