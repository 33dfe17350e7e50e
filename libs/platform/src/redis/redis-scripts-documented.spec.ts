import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..');
const page = readFileSync(join(SRC, '..', '..', '..', 'docs', 'architecture.md'), 'utf8');

function luaFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? luaFiles(join(dir, entry.name))
      : entry.name.endsWith('.lua')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('docs/architecture.md "Redis scripts"', () => {
  it('lists exactly the .lua files under libs/platform/src', () => {
    const section = page.slice(page.indexOf('\n## Redis scripts\n')).split('\n## ')[1];
    const listed = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => /^\| `([^`]+)`/.exec(line)?.[1]);
    const files = luaFiles(SRC).map((file) => relative(SRC, file));
    expect(listed.sort()).toEqual(files.sort());
  });

  it('no store runs an inline script: every script is a named .lua file run by redisScript', () => {
    const inline = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return inline(path);
        return entry.name.endsWith('.ts') &&
          /\.eval(sha)?\(/.test(readFileSync(path, 'utf8')) &&
          !entry.name.endsWith('.spec.ts')
          ? [relative(SRC, path)].filter((file) => file !== join('redis', 'redis-script.ts'))
          : [];
      });
    expect(inline(SRC)).toEqual([]);
  });
});
