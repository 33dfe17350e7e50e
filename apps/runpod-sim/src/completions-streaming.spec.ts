import { parseExposition, sampleValue, SHORT_TIMINGS, SimHarness } from './testing/sim-harness';

const MODEL = 'Qwen/Qwen2.5-32B-Instruct-AWQ';

/** Reads a streamed answer event by event, as an OpenAI client does. */
class EventReader {
  private buffered = '';
  private readonly decoder = new TextDecoder();

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  /** The next `data:` payload; null once the stream ended. */
  async next(): Promise<string | null> {
    for (;;) {
      const end = this.buffered.indexOf('\n\n');
      if (end >= 0) {
        const event = this.buffered.slice(0, end);
        this.buffered = this.buffered.slice(end + 2);
        return event.replace(/^data: /, '');
      }
      const { done, value } = await this.reader.read();
      if (done) return null;
      this.buffered += this.decoder.decode(value, { stream: true });
    }
  }
}

describe('pod proxy: completions and streaming', () => {
  let h: SimHarness;
  let podId: string;
  let base: string;

  beforeEach(async () => {
    h = await SimHarness.start({ timings: SHORT_TIMINGS });
    podId = (await h.createPod()).id;
    h.clock.advance(120); // serving
    base = h.sim.proxyUrlTemplate.replace('{podId}', podId).replace('{port}', '8000');
  });
  afterEach(() => h.close());

  const post = (path: string, body: Record<string, unknown>): Promise<Response> =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, ...body }),
    });
  const gauges = async (): Promise<{ running: number; done: number; tokens: number }> => {
    const samples = parseExposition((await h.proxy(podId, '/metrics')).text).samples;
    return {
      running: sampleValue(samples, 'vllm:num_requests_running'),
      done: sampleValue(samples, 'vllm:request_success_total', { finished_reason: 'stop' }),
      tokens: sampleValue(samples, 'vllm:generation_tokens_total'),
    };
  };

  it('/v1/completions answers a text_completion and moves the counters', async () => {
    const answer = await post('/v1/completions', { prompt: 'Once upon a time', sim_duration_ms: 0 });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      object: 'text_completion',
      model: MODEL,
      choices: [{ index: 0, text: 'This is a simulated reply.', finish_reason: 'stop' }],
      usage: { prompt_tokens: 4, completion_tokens: 32, total_tokens: 36 },
    });
    expect(await gauges()).toEqual({ running: 0, done: 1, tokens: 32 });
  });

  it.each([
    ['no prompt', {}],
    ['an empty prompt list', { prompt: [] }],
    ['a number prompt', { prompt: 7 }],
    ['a non-boolean stream', { prompt: 'x', stream: 'yes' }],
  ])('/v1/completions with %s is a 400', async (_what, body) => {
    expect((await post('/v1/completions', body)).status).toBe(400);
  });

  it('a streamed chat sends each token when it is generated: the first chunk long before the last', async () => {
    const answer = await post('/v1/chat/completions', {
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
      max_tokens: 4,
      sim_duration_ms: 4000,
      stream_options: { include_usage: true },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = new EventReader(answer.body!.getReader());

    h.clock.advance(1000); // the first of four tokens is generated
    const first = JSON.parse((await events.next())!) as Record<string, unknown>;
    expect(first).toMatchObject({
      object: 'chat.completion.chunk',
      choices: [{ delta: { role: 'assistant', content: 'This' }, finish_reason: null }],
    });
    // The generation is still running while the client holds its first token.
    expect(await gauges()).toMatchObject({ running: 1, done: 0 });

    h.clock.advance(3000);
    const rest: string[] = [];
    for (let event = await events.next(); event !== null; event = await events.next()) rest.push(event);
    expect(rest.at(-1)).toBe('[DONE]');
    const chunks = rest.slice(0, -1).map((e) => JSON.parse(e) as { choices: unknown[]; usage?: unknown });
    expect(chunks.map((c) => c.choices)).toEqual([
      [{ index: 0, delta: { content: ' is' }, logprobs: null, finish_reason: null }],
      [{ index: 0, delta: { content: ' a' }, logprobs: null, finish_reason: null }],
      [{ index: 0, delta: { content: ' simulated' }, logprobs: null, finish_reason: null }],
      [{ index: 0, delta: {}, logprobs: null, finish_reason: 'length' }],
      [],
    ]);
    expect(chunks.at(-1)?.usage).toMatchObject({ completion_tokens: 4 });
  });

  it('a streamed text completion ends with [DONE] and counts like any other', async () => {
    const answer = await post('/v1/completions', { prompt: 'Hi', stream: true, sim_duration_ms: 0 });
    const text = await answer.text();
    const events = text.split('\n\n').filter((e) => e !== '');
    expect(events).toHaveLength(32 + 2);
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(events[0].slice('data: '.length))).toMatchObject({
      object: 'text_completion',
      choices: [{ text: 'This' }],
    });
    expect(await gauges()).toEqual({ running: 0, done: 1, tokens: 32 });
  });
});
