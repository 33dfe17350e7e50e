import type { SignalSource } from './interrupt/interrupt-handler';
import { systemClock, type Clock } from './time/clock';

/**
 * What the CLI touches of its process, in one place: the streams, the
 * environment, the clock, the signals and the exit. Commands never reach for
 * `process` or the wall clock.
 */
export interface CliRuntime {
  readonly env: NodeJS.ProcessEnv;
  /** Every wait reads and sleeps through it. */
  readonly clock: Clock;
  /** stdout: JSON documents only. */
  readonly out: (text: string) => void;
  /** stderr: progress and notes for people. */
  readonly err: (text: string) => void;
  readonly stdoutIsTty: boolean;
  readonly stderrIsTty: boolean;
  readonly signals: SignalSource;
  /** Ends the process now (a second Ctrl-C), after writing `document`, if any, to stdout. */
  readonly exitNow: (document: Record<string, unknown> | null, code: number) => never;
}

export function processRuntime(): CliRuntime {
  return {
    env: process.env,
    clock: systemClock,
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    stdoutIsTty: process.stdout.isTTY === true,
    stderrIsTty: process.stderr.isTTY === true,
    signals: process,
    exitNow: (document, code) => {
      // Pipes and files take this write synchronously on Linux, so it is out before the exit.
      if (document !== null) process.stdout.write(`${JSON.stringify(document)}\n`);
      process.exit(code);
    },
  };
}

/** One JSON document: indented for a person at a terminal, one line for a program. */
export function formatDocument(document: unknown, pretty: boolean): string {
  return `${JSON.stringify(document, null, pretty ? 2 : undefined)}\n`;
}
