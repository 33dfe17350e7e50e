import type { Page } from 'playwright-core';
import { Stack } from '../support/stack';
import { TEST_OPERATOR_TOKEN } from '../support/test-env';
import { openBrowser } from './browser';

/**
 * Bull Board in Debian's chromium, signed in as the banner of `npm start`
 * says (any user, the operator token as password): the board renders its
 * queues, every request the page makes goes to the gateway, and it runs
 * under its CSP without a violation.
 */
describe('Bull Board in a browser', () => {
  let stack: Stack;
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let page: Page;
  const requestUrls: string[] = [];
  const cspViolations: string[] = [];

  beforeAll(async () => {
    stack = await Stack.start({ name: 'board', wakers: 0, idleMonitors: 0 });
    browser = await openBrowser();
    page = await browser.context.newPage();
    await page.context().setHTTPCredentials({ username: 'any', password: TEST_OPERATOR_TOKEN });
    page.on('request', (request) => requestUrls.push(request.url()));
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('renders the queues with no request outside the gateway and no CSP violation', async () => {
    const answer = await page.goto(`${stack.gatewayUrl}/admin/queues`);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByText('wake', { exact: true }).first().waitFor({ timeout: 30_000 });
    await page.getByText('idle-tick', { exact: true }).first().waitFor({ timeout: 30_000 });
    expect(requestUrls.length).toBeGreaterThan(3);
    expect(requestUrls.filter((url) => !url.startsWith(`${stack.gatewayUrl}/`))).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
