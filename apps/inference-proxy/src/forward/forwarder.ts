import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Response } from 'express';
import { Agent, request, type Dispatcher } from 'undici';
import { forwardableHeaders, isPodProxyNotServing } from '@podwarden/policies';

export interface ForwardInput {
  /** The pod's proxy base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** `/v1/…` with the query string. */
  readonly path: string;
  readonly req: IncomingMessage;
  readonly body: Buffer;
  readonly res: Response;
  /** Aborted when the client goes away: the pod's request is cancelled with it. */
  readonly signal: AbortSignal;
  /** Called once, when the first byte of the pod's answer is written to the client. */
  readonly onFirstByte: () => void;
  /** Called with each chunk of the pod's answer as it is passed on (a copy is kept of a model list). */
  readonly onChunk?: (chunk: Buffer) => void;
}

export type ForwardEnding =
  | { readonly kind: 'completed'; readonly status: number }
  | { readonly kind: 'unreachable'; readonly reason: string }
  /** RunPod's edge answered for a pod that is not serving; nothing was written to the client. */
  | { readonly kind: 'not-serving'; readonly status: number }
  | { readonly kind: 'cut'; readonly reason: string };

/**
 * One request passed to the pod and its answer passed back chunk by chunk as undici reads it, so an SSE
 * stream reaches the client token by token. No header or body timeout: a non-streamed generation sends
 * headers only when done, and the client's disconnect ends a request that runs too long.
 */
export class Forwarder {
  private readonly agent: Dispatcher;

  constructor(connectTimeoutMs: number) {
    this.agent = new Agent({ connect: { timeout: connectTimeoutMs }, headersTimeout: 0, bodyTimeout: 0 });
  }

  async forward(input: ForwardInput): Promise<ForwardEnding> {
    const { res } = input;
    let upstream: Dispatcher.ResponseData;
    try {
      upstream = await request(`${input.baseUrl}${input.path}`, {
        dispatcher: this.agent,
        method: (input.req.method ?? 'GET') as Dispatcher.HttpMethod,
        headers: forwardableHeaders(input.req.headers, 'request'),
        body: input.body.length > 0 ? input.body : undefined,
        signal: input.signal,
      });
    } catch (error) {
      return { kind: 'unreachable', reason: errorText(error) };
    }
    const contentType = upstream.headers['content-type'];
    if (isPodProxyNotServing(upstream.statusCode, typeof contentType === 'string' ? contentType : null)) {
      await upstream.body.dump().catch(() => undefined);
      return { kind: 'not-serving', status: upstream.statusCode };
    }
    res.writeHead(upstream.statusCode, forwardableHeaders(upstream.headers, 'response'));
    res.flushHeaders();
    let first = true;
    try {
      for await (const chunk of upstream.body) {
        if (first) {
          first = false;
          input.onFirstByte();
        }
        input.onChunk?.(chunk as Buffer);
        if (!res.write(chunk as Buffer)) await once(res, 'drain', { signal: input.signal });
      }
    } catch (error) {
      // The client left, or the pod cut the stream: nothing sensible can follow a partial answer.
      upstream.body.destroy();
      res.destroy();
      return { kind: 'cut', reason: errorText(error) };
    }
    if (first) input.onFirstByte();
    res.end();
    return { kind: 'completed', status: upstream.statusCode };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
