import { ParsedBody } from './http-io';
import { isRecord, JsonRecord } from './json-reader';
import { FinishReason } from './vllm-process';

/**
 * The OpenAI shapes vLLM answers on /v1/chat/completions (`chat`) and
 * /v1/completions (`text`): the request fields the simulator reads, the
 * non-streamed body, and the server-sent-event chunks of a streamed one.
 */
export type CompletionKind = 'chat' | 'text';

export interface CompletionRequest {
  readonly kind: CompletionKind;
  /** Characters of prompt text (prompt tokens ≈ characters / 4). */
  readonly promptChars: number;
  readonly maxTokens: number | null;
  readonly stream: boolean;
  /** `stream_options.include_usage`: a last chunk carries the usage. */
  readonly includeUsage: boolean;
  readonly body: JsonRecord;
}

export type CompletionRead =
  | { readonly ok: true; readonly request: CompletionRequest }
  | { readonly ok: false; readonly message: string };

export function readCompletionRequest(kind: CompletionKind, body: ParsedBody): CompletionRead {
  if (body.kind !== 'json' || !isRecord(body.value)) {
    return { ok: false, message: 'request body must be a JSON object' };
  }
  const value = body.value;
  let promptChars: number;
  if (kind === 'chat') {
    if (!Array.isArray(value.messages) || value.messages.length === 0) {
      return { ok: false, message: 'messages must be a non-empty array' };
    }
    promptChars = messageChars(value.messages);
  } else {
    const prompt = value.prompt;
    const prompts = typeof prompt === 'string' ? [prompt] : Array.isArray(prompt) ? prompt : null;
    if (prompts === null || prompts.length === 0 || !prompts.every((p) => typeof p === 'string')) {
      return { ok: false, message: 'prompt must be a string or a non-empty array of strings' };
    }
    promptChars = (prompts as string[]).reduce((sum, p) => sum + p.length, 0);
  }
  if (value.stream !== undefined && typeof value.stream !== 'boolean') {
    return { ok: false, message: 'stream must be a boolean' };
  }
  const maxTokens =
    typeof value.max_tokens === 'number' && value.max_tokens >= 1 ? Math.floor(value.max_tokens) : null;
  const options = isRecord(value.stream_options) ? value.stream_options : {};
  return {
    ok: true,
    request: {
      kind,
      promptChars,
      maxTokens,
      stream: value.stream === true,
      includeUsage: options.include_usage === true,
      body: value,
    },
  };
}

export interface CompletionIdentity {
  readonly id: string;
  readonly created: number;
  readonly model: string;
}

export interface Usage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

export function usageOf(promptTokens: number, completionTokens: number): Usage {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

const REPLY = 'This is a simulated reply.';
const REPLY_TOKENS = ['This', ' is', ' a', ' simulated', ' reply.'];

/** The text of token `index` in a streamed reply: the reply's words, repeated as needed. */
export function tokenText(index: number): string {
  const word = REPLY_TOKENS[index % REPLY_TOKENS.length];
  return index > 0 && index % REPLY_TOKENS.length === 0 ? ` ${word}` : word;
}

export function completionBody(
  kind: CompletionKind,
  who: CompletionIdentity,
  finishReason: FinishReason,
  usage: Usage,
): JsonRecord {
  const choice =
    kind === 'chat'
      ? {
          index: 0,
          message: { role: 'assistant', content: REPLY },
          logprobs: null,
          finish_reason: finishReason,
        }
      : { index: 0, text: REPLY, logprobs: null, finish_reason: finishReason };
  return {
    id: who.id,
    object: kind === 'chat' ? 'chat.completion' : 'text_completion',
    created: who.created,
    model: who.model,
    choices: [choice],
    usage,
  };
}

/** One `data:` event; the first chat chunk also names the role, as vLLM does. */
export function tokenChunk(
  kind: CompletionKind,
  who: CompletionIdentity,
  index: number,
  finishReason: FinishReason | null,
): string {
  const text = finishReason === null ? tokenText(index) : '';
  const choice =
    kind === 'chat'
      ? {
          index: 0,
          delta:
            finishReason !== null
              ? {}
              : index === 0
                ? { role: 'assistant', content: text }
                : { content: text },
          logprobs: null,
          finish_reason: finishReason,
        }
      : { index: 0, text, logprobs: null, finish_reason: finishReason };
  return sseData({
    id: who.id,
    object: kind === 'chat' ? 'chat.completion.chunk' : 'text_completion',
    created: who.created,
    model: who.model,
    choices: [choice],
  });
}

export function usageChunk(kind: CompletionKind, who: CompletionIdentity, usage: Usage): string {
  return sseData({
    id: who.id,
    object: kind === 'chat' ? 'chat.completion.chunk' : 'text_completion',
    created: who.created,
    model: who.model,
    choices: [],
    usage,
  });
}

export const SSE_DONE = 'data: [DONE]\n\n';

function sseData(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

function messageChars(messages: readonly unknown[]): number {
  let chars = 0;
  for (const message of messages) {
    if (!isRecord(message)) continue;
    const content = message.content;
    if (typeof content === 'string') chars += content.length;
    else if (Array.isArray(content)) {
      for (const part of content)
        if (isRecord(part) && typeof part.text === 'string') chars += part.text.length;
    }
  }
  return chars;
}
