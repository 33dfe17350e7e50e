import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RedisKeys } from './redis-keys';

const ROOT = join(__dirname, '..', '..', '..', '..');
const page = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');

/** The first-column code spans of the table under a `## ` heading of docs/architecture.md. */
function firstColumn(heading: string): string[] {
  const start = page.indexOf(`\n## ${heading}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const section = page.slice(start + 1).split('\n## ')[0];
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => /^\| `([^`]+)`/.exec(line)?.[1] ?? '');
}

/** Every key RedisKeys builds, with each parameter shown as `<name>` the way the page writes it. */
function keyPatterns(): string[] {
  const keys = new RedisKeys('<prefix>');
  const placeholder: Record<string, string> = { podName: '<pod>' };
  return Object.getOwnPropertyNames(RedisKeys.prototype)
    .filter((name) => name !== 'constructor' && name !== 'pod')
    .map((name) => {
      const method = (keys as unknown as Record<string, (...args: string[]) => string>)[name];
      const params = /^[^(]*\(([^)]*)\)/
        .exec(method.toString())?.[1]
        .split(',')
        .map((param) => param.trim())
        .filter((param) => param !== '');
      return method.apply(
        keys,
        (params ?? []).map((param) => placeholder[param] ?? `<${param}>`),
      );
    });
}

describe('docs/architecture.md stays true', () => {
  it('the Redis key table lists exactly the keys redis-keys.ts builds', () => {
    expect([...firstColumn("Redis keys (outside BullMQ's)")].sort()).toEqual(keyPatterns().sort());
  });

  it('the app table lists exactly the folders under apps/', () => {
    const apps = readdirSync(join(ROOT, 'apps'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `apps/${entry.name}`);
    expect(firstColumn('Apps').sort()).toEqual(apps.sort());
  });

  it('the library table lists exactly the folders under libs/', () => {
    const libs = readdirSync(join(ROOT, 'libs'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `libs/${entry.name}`);
    expect(firstColumn('Libraries').sort()).toEqual(libs.sort());
  });
});
