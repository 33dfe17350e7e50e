import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliRuntime } from '../cli-runtime';
import { runCli } from '../run-cli';
import { fakeRuntime } from '../testing/fake-runtime';

const T0 = Date.parse('2026-11-02T10:00:00Z');
// One request, then another 30 minutes later: two cold starts under a 15-minute window, one under 40
// (ready 3:00, busy to 3:30; the second served 30:00-30:30; 40 idle ticks after 31:00: stopped at 71:00).
const trace = {
  bootMinutes: 3,
  pricePerHour: 0.6,
  requests: [
    { at: new Date(T0).toISOString(), seconds: 30 },
    { at: new Date(T0 + 30 * 60_000).toISOString(), seconds: 30 },
  ],
};

async function traceFile(document: unknown): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'what-if-')), 'trace.json');
  await writeFile(path, typeof document === 'string' ? document : JSON.stringify(document));
  return path;
}

const run = (runtime: CliRuntime, ...args: string[]) => runCli(['node', 'podwarden', ...args], runtime);

describe('podwarden what-if', () => {
  it('replays a trace file with both policies and prints the contract document', async () => {
    const { runtime, out } = fakeRuntime({ IDLE_MINUTES: '15', CHECK_SECONDS: '60' });
    expect(await run(runtime, 'what-if', '--trace', await traceFile(trace))).toBe(0);
    const document = JSON.parse(out.join(''));
    expect(document.policies.map((p: { policy: string }) => p.policy)).toEqual(['fixed', 'adaptive']);
    // Ready at 3:00, 15 idle minutes after the busy tick: stopped at 19:00; again from 30:00 to 49:00.
    expect(document.policies[0]).toEqual({
      policy: 'fixed',
      billedMinutes: 38,
      costUsd: 0.38,
      coldStarts: 2,
      waitMinutes: 6,
      stopsDuringUse: 0,
      prewakes: 0,
      windowMinutes: { min: 15, median: 15, max: 15 },
    });
  });

  it('takes the idle settings from the environment, as the idle monitor does', async () => {
    const { runtime, out } = fakeRuntime({ IDLE_MINUTES: '40' });
    expect(await run(runtime, 'what-if', '--trace', await traceFile(trace), '--policy', 'fixed')).toBe(0);
    expect(JSON.parse(out.join('')).policies).toEqual([
      expect.objectContaining({ coldStarts: 1, billedMinutes: 71 }),
    ]);
  });

  it('warns on stderr about a bad setting and replays with its default', async () => {
    const { runtime, out, err } = fakeRuntime({ IDLE_MINUTES: 'lots' });
    expect(await run(runtime, 'what-if', '--trace', await traceFile(trace), '--policy', 'fixed')).toBe(0);
    expect(err.join('')).toContain('IDLE_MINUTES="lots" is not a positive decimal such as 0.5; using 15');
    expect(JSON.parse(out.join('')).policies[0].billedMinutes).toBe(38);
  });

  it.each([
    { name: 'neither a name nor a trace', args: ['what-if'] },
    { name: 'both a name and a trace', args: ['what-if', 'qwen', '--trace', 'x.json'] },
    { name: 'an unknown policy', args: ['what-if', '--trace', 'x.json', '--policy', 'greedy'] },
    { name: 'bad days', args: ['what-if', 'qwen', '--days', '0'] },
    { name: 'a missing file', args: ['what-if', '--trace', '/nonexistent/trace.json'] },
  ])('$name is one bad_request, exit 2', async ({ args }) => {
    const { runtime, out } = fakeRuntime();
    expect(await run(runtime, '--url', 'http://127.0.0.1:1', ...args)).toBe(2);
    expect(JSON.parse(out.join(''))).toMatchObject({ code: 'bad_request' });
  });

  it.each([
    { name: 'not JSON', document: '{ nope', message: 'is not JSON' },
    { name: 'a trace without a price', document: { bootMinutes: 3, requests: [] }, message: 'pricePerHour' },
    {
      name: 'a request at no time',
      document: { ...trace, requests: [{ at: 'soon', seconds: 1 }] },
      message: 'requests[0].at',
    },
  ])('a file holding $name is refused by name', async ({ document, message }) => {
    const { runtime, out } = fakeRuntime();
    expect(await run(runtime, 'what-if', '--trace', await traceFile(document))).toBe(2);
    expect(JSON.parse(out.join('')).message).toContain(message);
  });

  describe('NAME: the pod’s own usage from the gateway', () => {
    let server: Server;
    const seen: { url: string; token: string | undefined }[] = [];
    beforeAll(async () => {
      server = createServer((request, response) => {
        seen.push({
          url: request.url ?? '',
          token: request.headers['x-rig-operator-token'] as string | undefined,
        });
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(trace));
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
    });
    afterAll(() => server.close());

    it('fetches GET …/usage?days=N with the operator token and replays it', async () => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { runtime, out } = fakeRuntime();
      expect(
        await run(
          runtime,
          '--url',
          url,
          '--token',
          'op-token',
          'what-if',
          'Qwen',
          '--days',
          '7',
          '--policy',
          'fixed',
        ),
      ).toBe(0);
      expect(seen).toEqual([{ url: '/api/pods/Qwen/usage?days=7', token: 'op-token' }]);
      expect(JSON.parse(out.join('')).policies[0].coldStarts).toBe(2);
    });
  });
});
