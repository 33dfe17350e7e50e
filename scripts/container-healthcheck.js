#!/usr/bin/env node
// The image's HEALTHCHECK: GET /health/live on the port of the app this container
// runs (read from PID 1's command line, or PODWARDEN_APP). Exit 0 when it answers 200.
'use strict';
const { readFileSync } = require('node:fs');
const http = require('node:http');

function runningApp() {
  if (process.env.PODWARDEN_APP) return process.env.PODWARDEN_APP;
  const cmdline = readFileSync('/proc/1/cmdline', 'utf8');
  const match = /dist\/apps\/([a-z-]+)\/main\.js/.exec(cmdline);
  return match ? match[1] : 'gateway';
}

function portOf(app) {
  if (app === 'gateway') return process.env.PORT || '8080';
  if (app === 'inference-proxy') return process.env.PROXY_PORT || '8081';
  // A worker serves health only on HEALTH_PORT; without it there is nothing to ask.
  return process.env.HEALTH_PORT || null;
}

const app = runningApp();
const port = portOf(app);
if (port === null) {
  console.error(`${app}: HEALTH_PORT is not set; no health endpoint to check`);
  process.exit(1);
}
const request = http.get(
  { host: '127.0.0.1', port: Number(port), path: '/health/live', timeout: 4000 },
  (res) => {
    res.resume();
    process.exit(res.statusCode === 200 ? 0 : 1);
  },
);
request.on('timeout', () => request.destroy(new Error('timed out')));
request.on('error', (error) => {
  console.error(`${app}: /health/live on ${port}: ${error.message}`);
  process.exit(1);
});
