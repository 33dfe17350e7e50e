'use strict';
// A bare NestJS app with one JSON route, on the HTTP adapter named in argv[2] ('express' | 'fastify'),
// listening on argv[3]. The adapter benchmark loads it to compare what each adapter costs a request.
require('reflect-metadata');
const { Controller, Get, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');

// About the size and shape of a GET /api/pods/qwen body.
const BODY = {
  name: 'qwen',
  configured: true,
  status: 'RUNNING',
  isRunning: true,
  podId: 'was98kwzp9qrfo',
  proxyUrl: 'https://was98kwzp9qrfo-8000.proxy.runpod.net',
  podsOnVolume: 1,
  datacenter: 'EU-RO-1',
  lookup: 'FOUND',
  readySince: null,
  wake: null,
  lastWake: null,
  idleStopAt: null,
  runtimeCapAt: null,
  keepAliveUntil: null,
  observedAt: new Date().toISOString(),
  expectedReadyAt: null,
};

class PingController {
  ping() {
    return BODY;
  }
}
Get('ping')(
  PingController.prototype,
  'ping',
  Object.getOwnPropertyDescriptor(PingController.prototype, 'ping'),
);
Controller()(PingController);

class PingModule {}
Module({ controllers: [PingController] })(PingModule);

async function main() {
  const [kind, port] = process.argv.slice(2);
  let adapter;
  if (kind === 'fastify') {
    const { FastifyAdapter } = require('@nestjs/platform-fastify');
    adapter = new FastifyAdapter();
  } else {
    const { ExpressAdapter } = require('@nestjs/platform-express');
    adapter = new ExpressAdapter();
  }
  const app = await NestFactory.create(PingModule, adapter, { logger: false });
  await app.listen(Number(port), '127.0.0.1');
  process.stdout.write(`listening ${kind} ${port}\n`);
  process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
