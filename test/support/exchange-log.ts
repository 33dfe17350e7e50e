import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_LOG_DIR } from './app-process';

/**
 * Every HTTP answer the e2e specs read (status, headers, body) appended to
 * test-logs/, so the secret check in scripts/test.sh sees response bodies and
 * headers as well as app logs. One file per jest worker.
 */
const file = join(TEST_LOG_DIR, `http-exchanges-${process.pid}.log`);
let ready = false;

export function recordExchange(
  request: string,
  status: number,
  headers: Record<string, string | string[] | undefined> | Headers,
  body: string,
): void {
  if (!ready) {
    mkdirSync(TEST_LOG_DIR, { recursive: true });
    ready = true;
  }
  const flat: Record<string, unknown> = {};
  if (headers instanceof Headers) headers.forEach((value, name) => (flat[name] = value));
  else Object.assign(flat, headers);
  appendFileSync(file, `${JSON.stringify({ request, status, headers: flat, body })}\n`);
}
