import { hugeMetricsBody, slowDripMetrics } from './metrics-faults';
import { IncomingMessage } from 'node:http';
import { CallLog, ProxyRequestKind } from './call-log';
import { FaultInjector, FaultSpec } from './fault-injector';
import { plainFault } from './fault-responses';
import {
  completionBody,
  CompletionIdentity,
  CompletionKind,
  CompletionRequest,
  readCompletionRequest,
  SSE_DONE,
  tokenChunk,
  Usage,
  usageChunk,
  usageOf,
} from './completions';
import {
  decodeSegment,
  headerValue,
  jsonResponse,
  ParsedBody,
  SimResponse,
  StreamSink,
  textResponse,
} from './http-io';
import { JsonRecord } from './json-reader';
import { renderVllmMetrics } from './metrics-exposition';
import { SimPod } from './pod-lifecycle';
import { VllmBehaviour } from './scenario';
import { SimWorld } from './sim-state';
import { TimerRegistry } from './timer-registry';
import { ChatJob, FinishReason, VllmProcess } from './vllm-process';

/** vLLM's two completion routes; both count as `chat` in the proxy stats. */
const COMPLETION_PATHS: Readonly<Record<string, CompletionKind>> = {
  '/v1/chat/completions': 'chat',
  '/v1/completions': 'text',
};

/**
 * The pod proxy, /proxy/{podId}-{port}/…, standing in for
 * https://{podId}-{port}.proxy.runpod.net: Cloudflare's 404 while the pod is
 * not running, 502 while the container is up but vLLM is not listening, then
 * a vLLM emulation (/metrics, /v1/chat/completions, /v1/completions with
 * optional SSE streaming, /health, /v1/models).
 * No bearer is needed, and none should ever arrive: the stats count any that does.
 */
export interface ProxyRequest {
  readonly req: IncomingMessage;
  readonly method: string;
  /** Everything after /proxy/, e.g. `abc123-8000/metrics`. */
  readonly rest: string;
  readonly body: ParsedBody;
}

/** Held chat responses re-check the simulated clock at least this often (real ms). */
const CHAT_POLL_MS = 25;

export class ProxyRoutes {
  private completionSeq = 0;

  constructor(
    private readonly world: SimWorld,
    private readonly faults: FaultInjector,
    private readonly calls: CallLog,
    private readonly timers: TimerRegistry,
  ) {}

  async handle(request: ProxyRequest): Promise<SimResponse> {
    const slash = request.rest.indexOf('/');
    const target = slash < 0 ? request.rest : request.rest.slice(0, slash);
    const subPath = slash < 0 ? '/' : request.rest.slice(slash);
    const kind: ProxyRequestKind =
      request.method === 'GET' && subPath === '/metrics'
        ? 'metrics'
        : request.method === 'POST' && COMPLETION_PATHS[subPath] !== undefined
          ? 'chat'
          : 'other';
    const dash = target.lastIndexOf('-');
    const podId = dash > 0 ? decodeSegment(target.slice(0, dash)) : null;
    const port = dash > 0 ? Number(target.slice(dash + 1)) : Number.NaN;

    const response = await this.answer(request, podId, port, subPath, kind);
    this.calls.recordProxy(
      podId ?? target,
      kind,
      response.status,
      headerValue(request.req, 'authorization') !== null,
      headerValue(request.req, 'user-agent'),
    );
    return response;
  }

  private async answer(
    request: ProxyRequest,
    podId: string | null,
    port: number,
    subPath: string,
    kind: ProxyRequestKind,
  ): Promise<SimResponse> {
    if (
      this.world.scenario.wire.proxyBrowserUaOnly &&
      !isBrowserUserAgent(headerValue(request.req, 'user-agent'))
    ) {
      return cloudflarePage(403, 'Attention Required! | Cloudflare');
    }
    if (podId === null || !Number.isInteger(port)) return cloudflarePage(404, '404 Not Found');
    const fault = kind === 'metrics' ? this.faults.take('metrics', podId) : null;
    if (fault !== null) {
      const faulted = await this.faulted(fault);
      if (faulted !== null) return faulted;
    }
    const pod = this.world.find(podId);
    if (pod === undefined || pod.port !== port) return cloudflarePage(404, '404 Not Found');
    const view = this.world.view(pod);
    if (view.serving === 'not-routing') return cloudflarePage(404, '404 Not Found');
    if (view.serving === 'loading' || pod.vllm === null || isDown(pod.behaviour)) {
      return cloudflarePage(502, '502 Bad Gateway');
    }
    const process = pod.vllm;
    switch (kind) {
      case 'metrics':
        return this.metrics(pod, process);
      case 'chat':
        return this.completion(pod, process, request, COMPLETION_PATHS[subPath]);
      case 'other':
        return this.other(pod, process, request.method, subPath);
    }
  }

  /** null: answer normally (after a delay fault). */
  private async faulted(fault: FaultSpec): Promise<SimResponse | null> {
    switch (fault.kind) {
      case 'status':
      case 'unreadable':
      case 'bare-404':
        return plainFault(fault);
      case 'malformed':
        // What a scraper gets from Cloudflare's bot check: 200, HTML, no metrics.
        return textResponse(
          200,
          'text/html; charset=utf-8',
          '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser',
        );
      case 'delay':
        await new Promise<void>((resolve) => this.timers.after(fault.delayMs, resolve));
        return null;
      case 'huge-body':
        return hugeMetricsBody(fault.bytes);
      case 'slow-drip':
        return slowDripMetrics(
          fault.intervalMs,
          fault.durationMs,
          (ms) => new Promise<void>((resolve) => this.timers.after(ms, resolve)),
        );
      case 'after-effect':
      case 'no-id':
      case 'no-volume':
      case 'other-gpu':
      case 'late-answer':
      case 'ignore':
        return null;
    }
  }

  private metrics(pod: SimPod, process: VllmProcess): SimResponse {
    if (pod.behaviour === 'flapping') {
      pod.flapScrapes += 1;
      if (pod.flapScrapes % 2 === 1) return cloudflarePage(502, '502 Bad Gateway');
    }
    const text = renderVllmMetrics({
      modelName: pod.modelName,
      snapshot: process.snapshot(this.world.now()),
      runningFloor: pod.behaviour === 'phantom-busy' ? 1 : 0,
      withCounters: pod.behaviour !== 'no-counters',
      createdSamples: this.world.scenario.vllm.createdSamples,
      processStartWallSeconds: process.startedAtWallSeconds,
      scrapesServed: this.calls.proxyCount(pod.id, 'metrics'),
      modelListsServed: process.modelListsServed,
    });
    return textResponse(200, 'text/plain; version=0.0.4; charset=utf-8', text);
  }

  private async completion(
    pod: SimPod,
    process: VllmProcess,
    request: ProxyRequest,
    kind: CompletionKind,
  ): Promise<SimResponse> {
    const read = readCompletionRequest(kind, request.body);
    if (!read.ok) return openAiError(400, read.message);
    const completion = read.request;
    const duration = chatDuration(
      completion.body,
      headerValue(request.req, 'x-sim-duration-ms'),
      this.world.scenario.timings.chatMs,
    );
    if (duration === null) return openAiError(400, 'sim_duration_ms must be a non-negative number');
    const promptTokens = Math.max(1, Math.ceil(completion.promptChars / 4));
    const standard = this.world.scenario.vllm.completionTokens;
    const maxTokens = completion.maxTokens;
    const cut = maxTokens !== null && maxTokens < standard;
    const completionTokens = cut ? maxTokens : standard;
    const finishReason: FinishReason = cut ? 'length' : 'stop';

    const job = process.enqueue(this.world.now(), duration, promptTokens, completionTokens, finishReason);
    this.completionSeq += 1;
    const who: CompletionIdentity = {
      id: `${kind === 'chat' ? 'chatcmpl' : 'cmpl'}-sim-${this.completionSeq}`,
      created: Math.floor(this.world.wall() / 1000),
      model: pod.modelName,
    };
    const usage = usageOf(promptTokens, completionTokens);
    const stillServing = (): boolean =>
      pod.vllm === process && this.world.view(pod).serving === 'ready' && !isDown(pod.behaviour);
    if (completion.stream) {
      return this.streamed(job, who, completion, finishReason, usage, stillServing);
    }
    await this.waitUntil(job.end);
    // The process may have been stopped, restarted or killed while the request was in flight.
    if (!stillServing()) return cloudflarePage(502, '502 Bad Gateway');
    return jsonResponse(200, completionBody(kind, who, finishReason, usage));
  }

  /**
   * Server-sent events as vLLM sends them: token i leaves when the schedule
   * has generated it (evenly spread from the job's start to its end), so the
   * first chunk arrives long before the last is generated.
   */
  private streamed(
    job: ChatJob,
    who: CompletionIdentity,
    completion: CompletionRequest,
    finishReason: FinishReason,
    usage: Usage,
    stillServing: () => boolean,
  ): SimResponse {
    const tokens = usage.completion_tokens;
    const stream = async (sink: StreamSink): Promise<void> => {
      for (let i = 0; i < tokens; i += 1) {
        await this.waitUntil(job.start + ((job.end - job.start) * (i + 1)) / tokens);
        // A stopped pod cuts the stream mid-way, as the real proxy does.
        if (sink.closed || !stillServing()) throw new Error('stream cut');
        sink.write(tokenChunk(completion.kind, who, i, null));
      }
      sink.write(tokenChunk(completion.kind, who, tokens, finishReason));
      if (completion.includeUsage) sink.write(usageChunk(completion.kind, who, usage));
      sink.write(SSE_DONE);
    };
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
      body: '',
      json: undefined,
      stream,
    };
  }

  private other(pod: SimPod, process: VllmProcess, method: string, subPath: string): SimResponse {
    if (method === 'GET' && subPath === '/health') return textResponse(200, 'application/json', '');
    if (method === 'GET' && subPath === '/v1/models') {
      // Like vLLM: the list is answered from the server's state; no request enters the engine.
      process.listModels();
      return jsonResponse(200, {
        object: 'list',
        data: [{ id: pod.modelName, object: 'model', owned_by: 'vllm', max_model_len: 32768 }],
      });
    }
    return jsonResponse(404, { detail: 'Not Found' });
  }

  private waitUntil(simAt: number): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        const remaining = this.world.realDelayUntil(simAt);
        if (remaining <= 0) resolve();
        else this.timers.after(Math.min(Math.ceil(remaining), CHAT_POLL_MS), check);
      };
      check();
    });
  }
}

/** never-ready and dead both mean nothing answers on the port. */
function isDown(behaviour: VllmBehaviour): boolean {
  return behaviour === 'never-ready' || behaviour === 'dead';
}

function isBrowserUserAgent(userAgent: string | null): boolean {
  return userAgent !== null && userAgent.startsWith('Mozilla/');
}

function cloudflarePage(status: number, title: string): SimResponse {
  const page = `<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>cloudflare</center></body></html>`;
  const response = textResponse(status, 'text/html; charset=utf-8', page);
  return { ...response, headers: { ...response.headers, server: 'cloudflare' } };
}

function openAiError(status: number, message: string): SimResponse {
  return jsonResponse(status, {
    object: 'error',
    message,
    type: 'BadRequestError',
    param: null,
    code: status,
  });
}

/** Body field sim_duration_ms wins over the x-sim-duration-ms header; null when either is unusable. */
function chatDuration(chat: JsonRecord, header: string | null, fallback: number): number | null {
  const raw =
    chat.sim_duration_ms !== undefined ? chat.sim_duration_ms : header === null ? undefined : Number(header);
  if (raw === undefined) return fallback;
  return typeof raw === 'number' && Number.isFinite(raw) && raw >= 0 ? raw : null;
}
