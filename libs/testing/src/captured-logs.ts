import pino from 'pino';

/** One pino line as written: the numeric level, the message and the bound fields. */
export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

export const LEVEL = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
export type LevelName = keyof typeof LEVEL;

export interface CapturedLogs {
  /** A real pino logger (also a RunPodLogger): what the code under test writes, as it would reach stdout. */
  readonly logger: pino.Logger;
  /** Every line, parsed. */
  readonly lines: LogLine[];
  /** Every line, raw JSON, for "never contains" assertions. */
  readonly raw: string[];
  /** Everything written, as one string. */
  text(): string;
  /** Messages at exactly this level, in the order written. */
  messages(level: LevelName): string[];
  /** Lines whose message contains the fragment. */
  find(fragment: string): LogLine[];
  clear(): void;
}

/**
 * A real pino logger at trace level writing into memory, deliberately without
 * the redaction paths, so a test sees what the code under test itself logs
 * (a secret in a logged object shows up here instead of being censored).
 */
export function captureLogs(level: LevelName = 'trace'): CapturedLogs {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const logger = pino(
    { level },
    {
      write: (line: string) => {
        raw.push(line);
        lines.push(JSON.parse(line) as LogLine);
      },
    },
  );
  return {
    logger,
    lines,
    raw,
    text: () => raw.join(''),
    messages: (at) => lines.filter((line) => line.level === LEVEL[at]).map((line) => line.msg),
    find: (fragment) => lines.filter((line) => line.msg.includes(fragment)),
    clear: () => {
      lines.length = 0;
      raw.length = 0;
    },
  };
}
