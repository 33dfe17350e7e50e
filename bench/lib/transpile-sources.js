'use strict';
// The libs are bundled into the built apps and not exported from dist, so an
// in-process benchmark compiles the few TypeScript files it needs itself, with
// the TypeScript compiler already in node_modules (transpile only, no type
// check; type-only imports such as @podwarden/policies vanish).
const { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { basename, join } = require('node:path');
const { tmpdir } = require('node:os');
const ts = require('typescript');
const ROOT = join(__dirname, '..', '..');

/**
 * Transpiles groups of sources that import each other relatively (each group
 * lands in its own folder) and returns the loaded modules by file name, plus a
 * dispose() that deletes the temporary folder.
 */
function loadTypeScript(groups) {
  const dir = mkdtempSync(join(tmpdir(), 'podwarden-bench-ts-'));
  const modules = {};
  try {
    const written = [];
    for (const [group, files] of Object.entries(groups)) {
      mkdirSync(join(dir, group));
      for (const file of files) {
        const source = readFileSync(join(ROOT, file), 'utf8');
        const { outputText } = ts.transpileModule(source, {
          compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
          fileName: file,
        });
        const out = join(dir, group, basename(file).replace(/\.ts$/, '.js'));
        writeFileSync(out, outputText);
        written.push([basename(file, '.ts'), out]);
      }
    }
    for (const [name, out] of written) modules[name] = require(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return modules;
}

module.exports = { loadTypeScript };
