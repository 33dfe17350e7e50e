import type { RunPodLogger } from '@podwarden/runpod-client';

export interface CapturedLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly obj: object;
  readonly msg: string;
}

/** Keeps every line the client logs, so a test can search them (for the API key, above all). */
export class CapturedLogger implements RunPodLogger {
  readonly lines: CapturedLine[] = [];

  debug(obj: object, msg: string): void {
    this.lines.push({ level: 'debug', obj, msg });
  }

  info(obj: object, msg: string): void {
    this.lines.push({ level: 'info', obj, msg });
  }

  warn(obj: object, msg: string): void {
    this.lines.push({ level: 'warn', obj, msg });
  }

  error(obj: object, msg: string): void {
    this.lines.push({ level: 'error', obj, msg });
  }

  /** Every line as one text, the way a log shipper would see it. */
  text(): string {
    return this.lines.map((line) => JSON.stringify(line)).join('\n');
  }

  clear(): void {
    this.lines.length = 0;
  }
}
