// Generates the checked-in what-if traces (docs/benchmarks.md, "what-if"): four kinds of traffic, 30 days
// each from Monday 2026-11-02 UTC, from a fixed seed, so `node bench/traces/generate-traces.js` rewrites
// the same files byte for byte.
const fs = require('node:fs');
const path = require('node:path');

const DAY_MS = 24 * 60 * 60_000;
const MINUTE_MS = 60_000;
const START = Date.parse('2026-11-02T00:00:00Z');
const DAYS = 30;

/** mulberry32: a small seeded PRNG, enough for test traffic. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (rand, low, high) => low + (high - low) * rand();
const request = (at, seconds) => ({
  at: new Date(Math.round(at)).toISOString(),
  seconds: Math.round(seconds * 10) / 10,
});
const isWeekend = (day) => [0, 6].includes(new Date(day).getUTCDay());

/** An agent working in bursts all day: a few requests seconds apart, bursts 25–70 minutes apart. */
function burstyAgent(rand) {
  const requests = [];
  for (let d = 0; d < DAYS; d += 1) {
    const day = START + d * DAY_MS;
    let at = day + between(rand, 6 * 60, 6.5 * 60) * MINUTE_MS;
    while (at < day + 22 * 60 * MINUTE_MS) {
      const count = 3 + Math.floor(rand() * 6);
      let t = at;
      for (let i = 0; i < count; i += 1) {
        const seconds = between(rand, 3, 25);
        requests.push(request(t, seconds));
        t += (seconds + between(rand, 2, 10)) * 1000;
      }
      at = t + between(rand, 25, 70) * MINUTE_MS;
    }
  }
  return requests;
}

/** A person's few conversations a day: turns a minute or two apart, hours between conversations. */
function fewConversations(rand) {
  const requests = [];
  for (let d = 0; d < DAYS; d += 1) {
    const day = START + d * DAY_MS;
    const conversations = 3 + Math.floor(rand() * 3);
    const starts = Array.from({ length: conversations }, () => between(rand, 8 * 60, 23 * 60)).sort(
      (a, b) => a - b,
    );
    let previousEnd = 0;
    for (const startMinute of starts) {
      let t = day + Math.max(startMinute, previousEnd + 60) * MINUTE_MS;
      const turns = 4 + Math.floor(rand() * 12);
      for (let i = 0; i < turns; i += 1) {
        requests.push(request(t, between(rand, 4, 30)));
        t += between(rand, 60, 120) * 1000;
      }
      previousEnd = (t - day) / MINUTE_MS;
    }
  }
  return requests;
}

/** Weekday office hours: a morning and an afternoon session starting at about the same time each day. */
function officeHours(rand) {
  const requests = [];
  for (let d = 0; d < DAYS; d += 1) {
    const day = START + d * DAY_MS;
    if (isWeekend(day)) continue;
    for (const [startMinute, lengthMinutes] of [
      [9 * 60, between(rand, 120, 180)],
      [14 * 60, between(rand, 90, 180)],
    ]) {
      let t = day + (startMinute + between(rand, -12, 12)) * MINUTE_MS;
      const end = t + lengthMinutes * MINUTE_MS;
      while (t < end) {
        requests.push(request(t, between(rand, 5, 40)));
        t += between(rand, 30, 240) * 1000;
      }
    }
  }
  return requests;
}

/** Traffic with no pattern at all: exponential gaps, mean 20 minutes, day and night. */
function noPattern(rand) {
  const requests = [];
  let t = START + between(rand, 0, 20) * MINUTE_MS;
  while (t < START + DAYS * DAY_MS) {
    requests.push(request(t, between(rand, 5, 30)));
    t += -Math.log(1 - rand()) * 20 * MINUTE_MS;
  }
  return requests;
}

const traces = {
  'bursty-agent': [burstyAgent, 11],
  'few-conversations': [fewConversations, 23],
  'office-hours': [officeHours, 37],
  'no-pattern': [noPattern, 41],
};

for (const [name, [generate, seed]] of Object.entries(traces)) {
  const trace = { bootMinutes: 3.2, pricePerHour: 0.79, requests: generate(random(seed)) };
  fs.writeFileSync(path.join(__dirname, `${name}.json`), `${JSON.stringify(trace)}\n`);
  console.log(`${name}: ${trace.requests.length} requests`);
}
