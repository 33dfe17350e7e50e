import type { CliRuntime } from './cli-runtime';
import { runCli } from './run-cli';
import { fakeRuntime } from './testing/fake-runtime';

const run = (runtime: CliRuntime, ...args: string[]) => runCli(['node', 'podwarden', ...args], runtime);

describe(runCli.name, () => {
  it.each([
    [['start', 'qwen', '--wait', '--wait-timeout', '0']],
    [['start', 'qwen', '--wait', '--wait-timeout', '-5m']],
    [['start', 'qwen', '--wait', '--wait-timeout', 'soon']],
    [['start', 'qwen', '--wait', '--wait-timeout', '100000d']],
    [['start', 'qwen', '--wait-timeout', '5m']],
    [['start']],
    [['history', 'qwen', '--limit', 'x']],
    [['diagnose']],
    [['keepalive', 'qwen']],
    [['keepalive', 'qwen', '--minutes', '0']],
    [['keepalive', 'qwen', '--minutes', '-1']],
    [['status', '--bogus']],
    [['frobnicate']],
    [[]],
    [['--url', 'ftp://gateway', 'status']],
    [['--url', 'not a url', 'status']],
  ])('%j is one bad_request JSON object on stdout, exit 2, before any request', async (args) => {
    const { runtime, out } = fakeRuntime();
    // Nothing listens there: a request would end in unreachable (7), not bad_request.
    const code = await run(runtime, '--url', 'http://127.0.0.1:1', ...args);
    expect(code).toBe(2);
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0])).toMatchObject({ code: 'bad_request', message: expect.any(String) });
  });

  it('every command has --help with examples, on stdout, exit 0', async () => {
    for (const command of ['status', 'start', 'stop', 'history', 'keepalive', 'events', 'diagnose']) {
      const { runtime, out } = fakeRuntime();
      expect(await run(runtime, command, '--help')).toBe(0);
      expect(out.join('')).toContain('Examples:');
      expect(out.join('')).toContain(`$ podwarden ${command}`);
    }
  });

  it('an error never echoes the token', async () => {
    const { runtime, out, err } = fakeRuntime();
    await run(runtime, '--token', 'secret-token-123', '--url', 'http://127.0.0.1:1', 'stop', 'qwen');
    expect(JSON.parse(out[0])).toMatchObject({ code: 'unreachable' });
    expect(out.join('') + err.join('')).not.toContain('secret-token-123');
  });
});
