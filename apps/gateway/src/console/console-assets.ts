import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { POD_EVENT_TYPES } from '@podwarden/platform';

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
    Object.entries(FILES).map(([url, [file, contentType]]) => {
      const body = readFileSync(join(dir, file));
      return [url, { body: file === 'index.html' ? withEventTypes(body) : body, contentType }];
    }),
  );
}

const EVENT_TYPES_SLOT = 'data-event-types="[]"';

/** The console listens for every event type the apps publish: the list comes from the source, never a copy. */
function withEventTypes(page: Buffer): Buffer {
  const html = page.toString('utf8');
  if (!html.includes(EVENT_TYPES_SLOT)) throw new Error(`operator console page has no ${EVENT_TYPES_SLOT}`);
  const list = JSON.stringify(POD_EVENT_TYPES).replace(/"/g, '&quot;');
  return Buffer.from(html.replace(EVENT_TYPES_SLOT, `data-event-types="${list}"`), 'utf8');
}
