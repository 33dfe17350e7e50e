import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POD_EVENT_TYPES } from '@podwarden/platform';
import { loadConsoleAssets } from './console-assets';

describe('the console assets', () => {
  const assets = loadConsoleAssets();
  const page = assets.get('/')?.body.toString('utf8') ?? '';

  it('the page hands the console every event type the apps publish, from the source list', () => {
    const slot = /data-event-types="([^"]*)"/.exec(page);
    expect(slot).not.toBeNull();
    const decoded = JSON.parse((slot?.[1] ?? '').replace(/&quot;/g, '"')) as unknown;
    expect(decoded).toEqual([...POD_EVENT_TYPES]);
  });

  it('the script keeps no copy of the list (it reads the tag)', () => {
    const script = assets.get('/console/console.js')?.body.toString('utf8') ?? '';
    expect(script).toContain('dataset.eventTypes');
    for (const type of POD_EVENT_TYPES) expect(script).not.toMatch(new RegExp(`^\\s*'${type}',$`, 'm'));
  });

  it('a page without the slot fails at start-up instead of serving a console deaf to events', () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-'));
    writeFileSync(join(dir, 'index.html'), '<script src="/console/console.js" defer></script>');
    writeFileSync(join(dir, 'console.js'), '');
    writeFileSync(join(dir, 'console.css'), '');
    expect(() => loadConsoleAssets([dir])).toThrow('operator console page has no data-event-types="[]"');
  });
});
