#!/usr/bin/env node
'use strict';
// `node scripts/merge-mutation-reports.js FULL.json PART.json [...]`: one score from a full Stryker run
// and later runs of some of its files (`--mutate`): each file is taken from the last report that holds
// it. Prints the per-file table (markdown) and the total, counted as Stryker counts them.
const { readFileSync } = require('node:fs');

const reports = process.argv.slice(2).map((path) => JSON.parse(readFileSync(path, 'utf8')));
if (reports.length === 0) {
  console.error('usage: merge-mutation-reports.js FULL.json [PART.json ...]');
  process.exit(2);
}
const files = new Map();
for (const report of reports) for (const [name, file] of Object.entries(report.files)) files.set(name, file);

const KEYS = ['Killed', 'Timeout', 'Survived', 'NoCoverage', 'CompileError', 'RuntimeError', 'Ignored'];
const total = Object.fromEntries(KEYS.map((k) => [k, 0]));
const rows = [];
for (const [name, file] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
  const count = Object.fromEntries(KEYS.map((k) => [k, 0]));
  for (const mutant of file.mutants) count[mutant.status] = (count[mutant.status] ?? 0) + 1;
  for (const k of KEYS) total[k] += count[k];
  rows.push([name, count]);
}
const score = (c) => {
  const detected = c.Killed + c.Timeout;
  const valid = detected + c.Survived + c.NoCoverage;
  return valid === 0 ? 'n/a' : ((100 * detected) / valid).toFixed(2);
};
console.log('| file | score | killed | timeout | survived | no coverage |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const [name, c] of rows) {
  if (c.Killed + c.Timeout + c.Survived + c.NoCoverage === 0) continue;
  const short = name.replace(/^libs\/policies\/src\//, '');
  console.log(`| ${short} | ${score(c)} | ${c.Killed} | ${c.Timeout} | ${c.Survived} | ${c.NoCoverage} |`);
}
console.log(
  `\ntotal: ${score(total)} % (killed ${total.Killed}, timeout ${total.Timeout}, survived ${total.Survived}, ` +
    `no coverage ${total.NoCoverage}, compile errors ${total.CompileError}, runtime errors ${total.RuntimeError}, ` +
    `ignored ${total.Ignored})`,
);
