import pino from 'pino';
import type { AppLogger } from '@podwarden/platform';

export interface CapturedLogs {
  readonly logger: AppLogger;
  /** Every line written, raw JSON as it would reach stdout. */
  readonly lines: string[];
  /** Everything written, as one string, for "never contains" assertions. */
  text(): string;
}

/**
 * A real pino logger at trace level writing into memory, deliberately without
 * the redaction paths, so a test sees what the code under test itself logs.
 */
export function capturingLogger(): CapturedLogs {
  const lines: string[] = [];
  const logger = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
  return { logger, lines, text: () => lines.join('') };
}
