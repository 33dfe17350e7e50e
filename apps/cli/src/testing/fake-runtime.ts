import type { CliRuntime } from '../cli-runtime';
import { FakeClock } from './fake-clock';

/** A CLI runtime on a fake clock that keeps what was written to stdout and stderr, for the specs to read. */
export function fakeRuntime(env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const runtime: CliRuntime = {
    env,
    clock: new FakeClock(),
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    stdoutIsTty: false,
    stderrIsTty: false,
    signals: { on: () => undefined, off: () => undefined },
    exitNow: () => {
      throw new Error('exitNow is not expected here');
    },
  };
  return { runtime, out, err };
}
