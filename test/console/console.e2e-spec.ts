import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT, TEST_LOG_DIR } from '../support/app-process';
import { IDLE_TEST_TIMINGS } from '../idle/support/idle-harness';
import { resetSim, simWrites } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { TEST_OPERATOR_TOKEN } from '../support/test-env';
import { openBrowser } from './browser';

/**
 * The operator console in Debian's chromium against the running system
 * (simulator, gateway, waker, idle monitor): a wake from the button shows
 * Booting then Ready without a reload, a chat turn goes through the
 * simulator's pod proxy, a stop, the timeline; a wrong token changes nothing.
 * `CONSOLE_SCREENSHOT=docs` also refreshes docs/console.png.
 */
describe('the operator console in a browser', () => {
  let stack: Stack;
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let page: Page;
  const requestUrls: string[] = [];
  const cspViolations: string[] = [];

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'console',
      wakers: 1,
      idleMonitors: 1,
      env: { CHECK_SECONDS: '1', IDLE_MINUTES: '30', RUNPOD_BOOT_GRACE_MINUTES: '30' },
    });
    await resetSim(stack, { timings: { ...IDLE_TEST_TIMINGS, modelLoadMs: 4_000 } });
    browser = await openBrowser();
    page = await browser.context.newPage();
    page.on('request', (request) => requestUrls.push(request.url()));
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const card = () => page.locator('section[data-pod="qwen"]');
  const phase = () => card().locator('.phase');
  const message = () => card().locator('.message');

  it('serves the page under a CSP with no inline script, and shows the pod down and live', async () => {
    const answer = await page.goto(stack.gatewayUrl);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(await page.locator('script:not([src])').count()).toBe(0);
    // The built console serves its script minified (scripts/minify-console.js), under the same CSP.
    const script = await fetch(`${stack.gatewayUrl}/console/console.js`);
    expect(script.headers.get('content-security-policy')).toContain("script-src 'self'");
    const code = await script.text();
    expect(code).not.toContain('// The operator console');
    expect(Buffer.byteLength(code)).toBeLessThan(10 * 1024);
    await expectText(phase(), 'Down');
    await expectText(card().locator('.live'), 'live');
    // Page code runs in the browser: passed as text (the specs compile without the DOM library).
    await page.evaluate('window.loadedOnce = true');
  });

  it('a wrong token shows an error and changes nothing (no RunPod write)', async () => {
    await page.fill('#token', 'not-the-token');
    await page.press('#token', 'Enter');
    await card().getByRole('button', { name: 'Start', exact: true }).click();
    await expectText(message(), 'refused (401)');
    expect(await message().getAttribute('class')).toContain('error');
    expect(await simWrites(stack)).toEqual([]);
    expect(await phase().textContent()).toBe('Down');
  });

  it('wakes from the keyboard: Booting, then Ready, arrive without a reload', async () => {
    await page.fill('#token', TEST_OPERATOR_TOKEN);
    await page.press('#token', 'Enter');
    await expectText(page.locator('#token-state'), 'token set for this tab');
    // Use token → Forget → the card's Start.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Start');
    await page.keyboard.press('Enter');

    await expectText(phase(), 'Booting', 60_000);
    await expectText(phase(), 'Ready', 60_000);
    expect(await page.evaluate('window.loadedOnce')).toBe(true);
    expect(await simWrites(stack)).toEqual(['POST /pods']);
  });

  it('a chat turn through the simulator pod proxy answers while the card stays Ready', async () => {
    const status = await stack.api<{ proxyUrl: string }>('GET', '/api/pods/qwen');
    const chat = await fetch(`${status.body.proxyUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'qwen', messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(chat.status).toBe(200);
    await card().getByRole('button', { name: 'Keep alive', exact: true }).click();
    await expectText(message(), 'Kept alive until');
    await expectText(card().locator('dd').nth(4), 'until');
    await saveScreenshot(page, 'console');
    expect(await phase().textContent()).toBe('Ready');
  });

  it('stops from the button; the timeline shows the boot and the billable actions', async () => {
    await card().getByRole('button', { name: 'Stop', exact: true }).click();
    await expectText(message(), 'Stopped');
    await expectText(phase(), 'Down', 30_000);
    const timeline = card().locator('.timeline');
    await expectCount(timeline.locator('rect.band.booting'), 1);
    await expectCount(timeline.locator('rect.band.ready'), 1);
    // The create and the stop (and the keep-alive, recorded like any billable change).
    await expectText(timeline.locator('details.actions summary'), /last 24 h \([2-9]\)/);
    const actions = await timeline.locator('details.actions li').allTextContents();
    expect(actions.some((line) => / Create \S+ \(wake\)/.test(line))).toBe(true);
    expect(actions.some((line) => / Stop \S+ \(manual\)/.test(line))).toBe(true);
    // The run it made: woken, ready, stopped from the button, with its cost estimate.
    await expectText(timeline.locator('details.runs summary'), /last 24 h \(1;/);
    const [run] = await timeline.locator('details.runs li').allTextContents();
    expect(run).toMatch(/: up .+, ready after .+, usable .+, stopped \(manual\), ≈ \d+\.\d{2,4} USD$/);
    expect(await simWrites(stack)).toEqual([
      'POST /pods',
      expect.stringMatching(/^POST \/pods\/\S+\/action stop$/),
    ]);
  });

  it('never renders the token or puts it in a URL, and nothing broke the CSP', async () => {
    expect(await page.content()).not.toContain(TEST_OPERATOR_TOKEN);
    expect(requestUrls.filter((url) => url.includes(TEST_OPERATOR_TOKEN))).toEqual([]);
    expect(cspViolations).toEqual([]);
  });

  it('is readable at phone width: nothing scrolls sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await expectText(phase(), 'Down');
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await saveScreenshot(page, 'console-phone');
  });
});

async function expectText(
  locator: ReturnType<Page['locator']>,
  text: string | RegExp,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen: string | null;
  for (;;) {
    seen = await locator.textContent({ timeout: timeoutMs }).catch(() => null);
    if (seen !== null && (typeof text === 'string' ? seen.includes(text) : text.test(seen))) return;
    if (Date.now() > deadline)
      throw new Error(`expected ${String(text)}, the page shows ${JSON.stringify(seen)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function expectCount(locator: ReturnType<Page['locator']>, atLeast: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await locator.count()) < atLeast) {
    if (Date.now() > deadline) throw new Error(`expected at least ${atLeast} of ${String(locator)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(TEST_LOG_DIR, { recursive: true });
  await page.screenshot({ path: join(TEST_LOG_DIR, `${name}.png`), fullPage: true });
  if (process.env.CONSOLE_SCREENSHOT === 'docs') {
    await page.screenshot({ path: join(ROOT, 'docs', `${name}.png`), fullPage: true });
  }
}
