#!/usr/bin/env node
'use strict';
// The operator console's script, minified at build time (after `nest build gateway` copied the
// console's files beside the bundle): the gateway serves this copy, a few kB. The source under
// apps/gateway/src/console/public stays readable; the unit specs serve it as it is.
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { gzipSync } = require('node:zlib');
const { minify } = require('terser');

const ROOT = join(__dirname, '..');
const SOURCE = join(ROOT, 'apps/gateway/src/console/public/console.js');
const TARGET = join(ROOT, 'dist/apps/gateway/console/public/console.js');

async function main() {
  const code = readFileSync(SOURCE, 'utf8');
  const result = await minify(code, {
    ecma: 2020,
    compress: { passes: 2 },
    mangle: true,
    format: { comments: false },
  });
  if (typeof result.code !== 'string' || result.code.length === 0) throw new Error('terser produced nothing');
  writeFileSync(TARGET, result.code);
  const gzipped = gzipSync(result.code).length;
  const bytes = (text) => Buffer.byteLength(text, 'utf8');
  console.log(`console.js minified: ${bytes(code)} -> ${bytes(result.code)} bytes (${gzipped} gzipped)`);
}

main().catch((error) => {
  console.error(`console.js not minified: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
