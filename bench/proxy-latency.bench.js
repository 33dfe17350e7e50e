'use strict';
// proxy-latency: what the inference proxy adds to a request and to each
// streamed token, against the same request sent straight to the simulator's
// pod proxy (what a client would reach without podwarden). The pod is RUNNING
// and recorded ready by an idle monitor, so every proxied request takes the
// ready path (token check, readiness read, address, traffic record, forward).
// Requests alternate proxy / direct on keep-alive pools, one at a time, so
// noise hits both alike; added latency is the median of the pairwise
// differences. Target: p50 added per request ≤ 2 ms.
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Agent, request } = require('undici');
const Redis = require('ioredis');
const { Stack, VOLUME_ID } = require('./lib/stack');
const { eventually } = require('./lib/app-process');
const { REDIS_URL } = require('./lib/redis-prefix');
const { markdownTable } = require('./lib/markdown-table');
const { percentile, fixed } = require('./lib/stats');

const N = Number(process.env.BENCH_PROXY_N || 300);
const STREAM_N = Number(process.env.BENCH_PROXY_STREAM_N || 100);
const PACED_N = Number(process.env.BENCH_PROXY_PACED_N || 20);
const WARMUP = 30;
const TOKENS = 256;
const PACED_MS = 1_280; // 256 tokens over 1.28 s: one every 5 ms
const INFERENCE_TOKEN = 'bench-inference-token-77d1';
const TARGET_P50_MS = 2;

async function run({ log }) {
  const dir = mkdtempSync(join(tmpdir(), 'pw-bench-scenario-'));
  const scenario = join(dir, 'scenario.json');
  writeFileSync(scenario, JSON.stringify({ vllm: { completionTokens: TOKENS, maxConcurrency: 8 } }));
  const stack = await Stack.start({
    name: 'proxy-latency',
    gateway: false,
    idleMonitors: 1,
    inferenceProxy: true,
    env: { CHECK_SECONDS: '1', IDLE_MINUTES: '60', RIG_INFERENCE_TOKEN: INFERENCE_TOKEN },
    simEnv: { SIM_SCENARIO: scenario },
  });
  const agent = new Agent({ connections: 2, keepAliveTimeout: 30_000 });
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  try {
    const seeded = await stack.simRequest('POST', '/_sim/pods', { status: 'RUNNING', volumeId: VOLUME_ID });
    if (seeded.status !== 201) throw new Error(`seed failed: ${seeded.status}`);
    const podId = seeded.body.id;
    await eventually(
      async () => {
        const raw = await redis.get(`${stack.prefix}:idle-state:qwen`);
        return raw !== null && JSON.parse(raw).state.readySince != null ? true : undefined;
      },
      60_000,
      'the idle monitor to record the pod ready',
      200,
    );
    const targets = {
      proxy: { url: `${stack.proxyUrl}/qwen/v1/chat/completions`, auth: `Bearer ${INFERENCE_TOKEN}` },
      direct: { url: `${stack.simUrl}/proxy/${podId}-8000/v1/chat/completions`, auth: null },
    };
    const plain = { max_tokens: 16, sim_duration_ms: 0 };
    for (let i = 0; i < WARMUP; i++) for (const t of Object.values(targets)) await complete(t, agent, plain);

    const requests = await alternate(N, (t) => complete(t, agent, plain), targets);
    log(
      `request: proxy p50 ${fixed(percentile(requests.proxy, 50), 2)} ms, direct ${fixed(percentile(requests.direct, 50), 2)} ms`,
    );
    const burst = await alternate(STREAM_N, (t) => stream(t, agent, { sim_duration_ms: 0 }), targets);
    log(
      `burst stream of ${TOKENS} tokens: proxy p50 ${fixed(
        percentile(
          burst.proxy.map((s) => s.last),
          50,
        ),
        2,
      )} ms`,
    );
    const paced = await alternate(PACED_N, (t) => stream(t, agent, { sim_duration_ms: PACED_MS }), targets);
    return { markdown: report(requests, burst, paced) };
  } finally {
    await agent.close();
    redis.disconnect();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** n rounds of proxy then direct (the order flips every round); each side's results in round order. */
async function alternate(n, once, targets) {
  const out = { proxy: [], direct: [] };
  for (let i = 0; i < n; i++) {
    const order = i % 2 === 0 ? ['proxy', 'direct'] : ['direct', 'proxy'];
    for (const side of order) out[side].push(await once(targets[side]));
  }
  return out;
}

/** A chat completion request, as an OpenAI client sends it. */
function post(target, dispatcher, extra) {
  return request(target.url, {
    method: 'POST',
    dispatcher,
    headers: {
      'content-type': 'application/json',
      ...(target.auth === null ? {} : { authorization: target.auth }),
    },
    body: JSON.stringify({ model: 'qwen', messages: [{ role: 'user', content: 'hi' }], ...extra }),
  });
}

/** A non-streamed completion; ms from send to the whole body. */
async function complete(target, dispatcher, extra) {
  const started = performance.now();
  const answer = await post(target, dispatcher, extra);
  const text = await answer.body.text();
  const ms = performance.now() - started;
  if (answer.statusCode !== 200)
    throw new Error(`${target.url} answered ${answer.statusCode}: ${text.slice(0, 200)}`);
  return ms;
}

/** A streamed completion: ms to the first token's chunk and to [DONE], and how many token chunks came. */
async function stream(target, dispatcher, extra) {
  const started = performance.now();
  const answer = await post(target, dispatcher, { stream: true, ...extra });
  if (answer.statusCode !== 200) throw new Error(`${target.url} answered ${answer.statusCode}`);
  let first = null;
  let text = '';
  for await (const chunk of answer.body) {
    if (first === null) first = performance.now() - started;
    text += chunk.toString('utf8');
  }
  const last = performance.now() - started;
  if (!text.includes('[DONE]')) throw new Error(`${target.url}: the stream ended without [DONE]`);
  const chunks = text.split('\n\n').filter((event) => event.startsWith('data: {')).length;
  return { first, last, chunks };
}

/** Median of the pairwise differences a[i] − b[i]. */
function pairedP50(a, b) {
  return percentile(
    a.map((value, i) => value - b[i]),
    50,
  );
}

function report(requests, burst, paced) {
  const added = pairedP50(requests.proxy, requests.direct);
  const firstOf = (xs) => xs.map((s) => s.first);
  const lastOf = (xs) => xs.map((s) => s.last);
  const burstFirst = pairedP50(firstOf(burst.proxy), firstOf(burst.direct));
  const burstLast = pairedP50(lastOf(burst.proxy), lastOf(burst.direct));
  // Growth of the added delay along a stream, per token after the first.
  const growth = (first, last) => fixed(((last - first) / (TOKENS - 1)) * 1000, 1).replace(/^-0\.0$/, '0.0');
  const pacedFirst = pairedP50(firstOf(paced.proxy), firstOf(paced.direct));
  const pacedLast = pairedP50(lastOf(paced.proxy), lastOf(paced.direct));
  const row = (label, n, xs, ys) => [
    label,
    n,
    fixed(percentile(ys, 50), 2),
    fixed(percentile(xs, 50), 2),
    fixed(percentile(xs, 90), 2),
    fixed(percentile(xs, 99), 2),
    `**${fixed(pairedP50(xs, ys), 2)}**`,
  ];
  const chunks = [...burst.proxy, ...burst.direct].map((s) => s.chunks);
  return [
    `An idle monitor (CHECK_SECONDS=1) has recorded the simulator's RUNNING pod ready; the inference proxy forwards to the simulator's pod proxy, the direct column calls that same URL. ` +
      `Requests alternate proxy / direct (the order flips every round), one at a time, on keep-alive undici pools, after ${WARMUP} warm-up rounds. ` +
      `Time from send to the whole body (the first chunk and [DONE] for streams). "Added" is the median of the pairwise differences proxy − direct. ` +
      `Streams carry ${TOKENS} tokens (${fixed(percentile(chunks, 50), 0)} SSE chunks each): "burst" with sim_duration_ms 0 (every token at once), "paced" one token every ${fixed(PACED_MS / TOKENS, 0)} ms.`,
    '',
    markdownTable(
      [
        'measure',
        'rounds',
        'direct p50 ms',
        'through proxy p50 ms',
        'proxy p90 ms',
        'proxy p99 ms',
        'added p50 ms',
      ],
      [
        row('non-streamed completion (16 tokens)', N, requests.proxy, requests.direct),
        row(`burst stream: first token`, STREAM_N, firstOf(burst.proxy), firstOf(burst.direct)),
        row(`burst stream: [DONE] (${TOKENS} tokens)`, STREAM_N, lastOf(burst.proxy), lastOf(burst.direct)),
        row('paced stream: first token', PACED_N, firstOf(paced.proxy), firstOf(paced.direct)),
        row(`paced stream: [DONE]`, PACED_N, lastOf(paced.proxy), lastOf(paced.direct)),
      ],
    ),
    '',
    `- **added per request, p50: ${fixed(added, 2)} ms against a target of ≤ ${TARGET_P50_MS} ms: ${added <= TARGET_P50_MS ? 'met' : 'not met'}.**`,
    `- **per streamed token:** the proxy relays each chunk as it reads it, so a token's added latency is a delay, not a sum over the tokens before it: ` +
      `in the paced stream the first token arrived **${fixed(pacedFirst, 2)} ms** and the last **${fixed(pacedLast, 2)} ms** later than direct (p50 of pairs). ` +
      `Per token after the first, the added delay grew by **${growth(pacedFirst, pacedLast)} µs** in the paced stream and ${growth(burstFirst, burstLast)} µs in the burst ((added at [DONE] − added at the first token) / ${TOKENS - 1}).`,
  ].join('\n');
}

module.exports = {
  name: 'proxy-latency',
  title: 'proxy-latency: what the inference proxy adds per request and per streamed token',
  run,
};
