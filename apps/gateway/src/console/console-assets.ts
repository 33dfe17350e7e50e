import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ConsoleAsset {
  readonly body: Buffer;
  readonly contentType: string;
}

/** URL path → file of the console, all read once at start-up (a few kB). */
const FILES: Readonly<Record<string, readonly [file: string, contentType: string]>> = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/console/console.js': ['console.js', 'text/javascript; charset=utf-8'],
  '/console/console.css': ['console.css', 'text/css; charset=utf-8'],
};

// Beside this file under ts-jest; copied next to the bundle (dist/apps/gateway/console) by nest-cli assets.
const CANDIDATE_DIRS = [join(__dirname, 'public'), join(__dirname, 'console', 'public')];

export function loadConsoleAssets(dirs: readonly string[] = CANDIDATE_DIRS): Map<string, ConsoleAsset> {
  const dir = dirs.find((candidate) => existsSync(join(candidate, 'index.html')));
  if (dir === undefined) throw new Error(`operator console files not found in ${dirs.join(' or ')}`);
  return new Map(
    Object.entries(FILES).map(([url, [file, contentType]]) => [
      url,
      { body: readFileSync(join(dir, file)), contentType },
    ]),
  );
}
