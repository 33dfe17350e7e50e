import type Redis from 'ioredis';
import type { Page } from 'playwright-core';
import { RedisKeys, UsageStore } from '@podwarden/platform';
import { connectTestRedis } from '@podwarden/testing';
import { eventually } from '../support/app-process';
import { Stack, VOLUME_ID } from '../support/stack';
import { REDIS_URL } from '../support/test-env';
import { SEEDED_BOOT_MS, seedDailySessions, writePodsConfig } from '../idle/support/idle-harness';
import { openBrowser } from './browser';

/**
 * The console card's rhythm rows in Debian's chromium: an adaptive pod whose
 * usage record holds three weeks of daily sessions (as the adaptive-window
 * spec seeds it) shows the window the idle monitor learned and when it will
 * pre-wake; a fixed pod beside it shows its fixed window and no pre-wake.
 * The sessions are two hours ahead, so no pre-wake fires during the spec.
 */
jest.setTimeout(180_000);

const TICK_MS = 1_000;

describe('the console card shows the idle window and the next pre-wake', () => {
  let stack: Stack;
  let redis: Redis;
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let page: Page;
  let sessionAt: number;

  beforeAll(async () => {
    const podsConfig = writePodsConfig([
      { name: 'qwen', volumeId: VOLUME_ID, idlePolicy: 'adaptive' },
      { name: 'steady', volumeId: 'vol-steady', idlePolicy: 'fixed' },
    ]);
    stack = await Stack.start({
      name: 'console-rhythm',
      wakers: 0,
      idleMonitors: 0,
      env: {
        PODS_CONFIG: podsConfig,
        CHECK_SECONDS: '1',
        IDLE_MINUTES: '0.25',
        IDLE_MIN_MINUTES: '0.05',
      },
    });
    redis = connectTestRedis(REDIS_URL);
    const usage = new UsageStore(redis, new RedisKeys(stack.prefix), 28);
    sessionAt = Math.ceil((Date.now() + 2 * 3_600_000) / 1000) * 1000;
    await seedDailySessions(usage, sessionAt);
    // The monitor starts after the seeding: what it learns first is the seeded record.
    await stack.startIdleMonitor();
    browser = await openBrowser();
    page = await browser.context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    redis?.disconnect();
    await stack?.stop();
  });

  /** The text of the card's row labelled `label` (its <dd>), once it reads as `expected`. */
  async function row(pod: string, label: string, expected: RegExp): Promise<string> {
    const dd = page.locator(`section[data-pod="${pod}"] dl dt:text-is("${label}") + dd`);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const seen = await dd.textContent({ timeout: 30_000 }).catch(() => null);
      if (seen !== null && expected.test(seen)) return seen;
      if (Date.now() > deadline) throw new Error(`${pod} ${label}: expected ${expected}, shows ${seen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('an adaptive pod: the learned window with its basis, and the pre-wake time', async () => {
    const status = await eventually(
      async () => {
        const answer = await stack.api<{ idleWindow: { basis: string }; nextPrewakeAt: string | null }>(
          'GET',
          '/api/pods/qwen',
        );
        return answer.body.idleWindow.basis.startsWith('learned') ? answer.body : undefined;
      },
      60_000,
      'the idle monitor to learn the seeded rhythm',
      200,
    );
    const prewakeAt = sessionAt - SEEDED_BOOT_MS - TICK_MS;
    expect(Date.parse(String(status.nextPrewakeAt))).toBe(prewakeAt);

    expect((await page.goto(stack.gatewayUrl))?.status()).toBe(200);
    const window = await row('qwen', 'Idle window', /learned/);
    expect(window).toMatch(/^0\.05 min \(adaptive\): learned from 209 idle gaps over 2[01] days$/);
    // The time as the browser itself formats it, then how far ahead: about two hours.
    const clock = String(
      await page.evaluate(
        `new Date(${prewakeAt}).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })`,
      ),
    );
    const prewake = await row('qwen', 'Next pre-wake', /\(in \d+ min\)$/);
    expect(prewake.startsWith(`${clock} (in `)).toBe(true);
    expect(Number(/\(in (\d+) min\)$/.exec(prewake)![1])).toBeGreaterThanOrEqual(115);
    expect(Number(/\(in (\d+) min\)$/.exec(prewake)![1])).toBeLessThanOrEqual(120);
  });

  it('a fixed pod beside it: its fixed window, and no pre-wake planned', async () => {
    expect(await row('steady', 'Idle window', /min/)).toBe('0.25 min (fixed): fixed window of 0.25 min');
    expect(await row('steady', 'Next pre-wake', /./)).toBe('none planned');
  });
});
