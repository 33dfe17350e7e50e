'use strict';
// The V8 heap settings every app runs with in production, read from the
// Dockerfile's `ENV NODE_OPTIONS="…"` line, the one place they are set, for
// the ways of starting the apps that do not go through the image (npm start,
// the memory benchmark). Why these values: docs/benchmarks.md, memory.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

function productionNodeOptions() {
  const dockerfile = readFileSync(join(__dirname, '..', 'Dockerfile'), 'utf8');
  const match = /^ENV NODE_OPTIONS="([^"]*)"$/m.exec(dockerfile);
  if (match === null) throw new Error('Dockerfile has no ENV NODE_OPTIONS="…" line');
  return match[1];
}

module.exports = { productionNodeOptions };
