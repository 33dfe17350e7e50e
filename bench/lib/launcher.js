'use strict';
// The e2e specs' launcher (test/support/app-process.ts and stack-launcher.ts), transpiled once at load
// so the benchmarks spawn, wait for and stop the apps with the very same code.
const { loadTypeScript } = require('./transpile-sources');

const FILES = ['app-process', 'tracked-children', 'free-port', 'stack-launcher'];

module.exports = loadTypeScript({ support: FILES.map((name) => `test/support/${name}.ts`) });
