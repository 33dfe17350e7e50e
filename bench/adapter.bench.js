'use strict';
// adapter: the same bare NestJS app (one JSON route the size of a status body) on Express and on
// Fastify, each in its own process, loaded with autocannon at 32 connections, taking turns. It says
// what the HTTP adapter alone costs a request, the ceiling of every gateway route.
const { spawn } = require('node:child_process');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { eventually } = require('./lib/app-process');
const { freePort } = require('./lib/free-port');
const { markdownTable } = require('./lib/markdown-table');

const SECONDS = Number(process.env.BENCH_ADAPTER_SECONDS || 10);
const TURNS = Number(process.env.BENCH_ADAPTER_TURNS || 2);
const ADAPTERS = ['express', 'fastify'];

async function start(kind) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(__dirname, 'lib', 'adapter-app.js'), kind, String(port)], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { PATH: process.env.PATH || '', NODE_ENV: 'production' },
  });
  const url = `http://127.0.0.1:${port}/ping`;
  await eventually(async () => ((await fetch(url)).ok ? true : undefined), 30_000, `${kind} up`, 100);
  return {
    kind,
    url,
    stop: () => new Promise((resolve) => (child.on('exit', resolve), child.kill('SIGTERM'))),
  };
}

async function run({ log }) {
  const apps = [];
  try {
    for (const kind of ADAPTERS) apps.push(await start(kind));
    for (const app of apps) await autocannon({ url: app.url, connections: 32, duration: 2 });
    const rows = new Map(ADAPTERS.map((kind) => [kind, []]));
    for (let turn = 0; turn < TURNS; turn++) {
      for (const app of apps) {
        const result = await autocannon({ url: app.url, connections: 32, duration: SECONDS });
        rows.get(app.kind).push({
          rps: Math.round(result.requests.total / SECONDS),
          p50: result.latency.p50,
          p99: result.latency.p99,
        });
      }
    }
    for (const [kind, runs] of rows) log(`${kind}: ${runs.map((r) => r.rps).join(' ')} req/s`);
    const best = (kind) => Math.max(...rows.get(kind).map((r) => r.rps));
    const table = markdownTable(
      [
        'adapter',
        `req/s at 32 connections (${TURNS} × ${SECONDS} s, taking turns)`,
        'p50 / p99 ms',
        'best vs Express',
      ],
      ADAPTERS.map((kind) => [
        kind,
        rows
          .get(kind)
          .map((r) => r.rps)
          .join(' / '),
        rows
          .get(kind)
          .map((r) => `${r.p50} / ${r.p99}`)
          .join(', '),
        `${(best(kind) / best('express')).toFixed(2)}×`,
      ]),
    );
    return {
      markdown: `A bare NestJS 11 app, one GET route answering a status-sized JSON body, no middleware, guards or pipes.\n\n${table}`,
    };
  } finally {
    await Promise.all(apps.map((app) => app.stop()));
  }
}

module.exports = { name: 'adapter', title: 'HTTP adapter: Express against Fastify', run };
