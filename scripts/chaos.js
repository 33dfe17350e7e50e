#!/usr/bin/env node
'use strict';
// `npm run chaos [-- --all] [-- jest args]`: the chaos suite on the built apps.
// Without --all only the representative subset runs (what .ci/run runs); the
// secret check then searches the logs and answers the suite produced.
const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const args = process.argv.slice(2);
const all = args.includes('--all');
const jestArgs = args.filter((a) => a !== '--all');
const missing = ['gateway', 'waker', 'idle-monitor', 'runpod-sim'].filter(
  (app) => !existsSync(join(ROOT, 'dist', 'apps', app, 'main.js')),
);
if (missing.length > 0) {
  console.error(`chaos: not built (${missing.join(', ')}); run npm run build first`);
  process.exit(2);
}
mkdirSync(join(ROOT, 'test-logs'), { recursive: true });
const env = { ...process.env, CHAOS_ALL: all ? '1' : '0' };
const jest = spawnSync(
  process.execPath,
  [require.resolve('jest/bin/jest'), '-c', 'jest.chaos.config.js', '--ci', '--runInBand', ...jestArgs],
  { cwd: ROOT, env, stdio: 'inherit' },
);
const check = spawnSync(
  process.execPath,
  [join(__dirname, 'secret-leak-check.js'), join(ROOT, 'test-logs')],
  {
    stdio: 'inherit',
  },
);
process.exit(jest.status !== 0 ? (jest.status ?? 1) : (check.status ?? 1));
