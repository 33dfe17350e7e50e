import pino from 'pino';
import type { AppLogger } from '@podwarden/platform';

/** One pino line as written: the numeric level, the message and the bound fields. */
export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

export interface CapturedLogs {
  readonly logger: AppLogger;
  readonly lines: LogLine[];
  /** Messages at exactly this level, in the order written. */
  messages(level: keyof typeof LEVEL): string[];
}

/** A real pino logger at debug level writing into memory, so a test reads what the tick itself logged. */
export function capturedLogs(): CapturedLogs {
  const lines: LogLine[] = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  );
  return {
    logger,
    lines,
    messages: (level) => lines.filter((line) => line.level === LEVEL[level]).map((line) => line.msg),
  };
}
