#!/usr/bin/env node
'use strict';
// After the tests, every file in test-logs/ is searched for the test stack's RunPod key and tokens (raw,
// URL-encoded, base64, base64url): any hit fails the run, whatever jest said.
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const dir = process.argv[2] ?? join(ROOT, 'test-logs');
const source = readFileSync(join(ROOT, 'test/support/test-env.ts'), 'utf8');
const secrets = [...source.matchAll(/export const TEST_[A-Z_]*(?:KEY|TOKEN) = '([^']+)'/g)].map((m) => m[1]);
if (secrets.length < 3) {
  console.error(
    `secret check: expected the key and tokens in test/support/test-env.ts, found ${secrets.length}`,
  );
  process.exit(2);
}
const forms = secrets.flatMap((secret) => {
  const bytes = Buffer.from(secret, 'utf8');
  const named = (form, how) => ({ form, how: `${how} of ${secret.slice(0, 8)}…` });
  return [
    named(secret, 'raw'),
    named(encodeURIComponent(secret), 'URL-encoded'),
    named(bytes.toString('base64'), 'base64'),
    named(bytes.toString('base64url'), 'base64url'),
  ];
});
const files = readdirSync(dir).filter((name) => statSync(join(dir, name)).isFile());
let leaks = 0;
for (const name of files) {
  const text = readFileSync(join(dir, name), 'latin1');
  for (const { form, how } of forms) {
    if (text.includes(form)) {
      console.error(`FAIL: ${how} appears in test-logs/${name}`);
      leaks++;
    }
  }
}
if (leaks > 0) process.exit(1);
console.log(
  `secret check: no key or token (raw, URL-encoded, base64) in ${files.length} files of test-logs/ (${secrets.length} secrets)`,
);
