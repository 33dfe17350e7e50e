'use strict';
// Production's V8 heap settings, read from the Dockerfile's NODE_OPTIONS line (their one place) for starts
// that skip the image (npm start, the memory benchmark). Why these values: docs/benchmarks.md, memory.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

function productionNodeOptions() {
  const dockerfile = readFileSync(join(__dirname, '..', 'Dockerfile'), 'utf8');
  const match = /^ENV NODE_OPTIONS="([^"]*)"$/m.exec(dockerfile);
  if (match === null) throw new Error('Dockerfile has no ENV NODE_OPTIONS="…" line');
  return match[1];
}

module.exports = { productionNodeOptions };
