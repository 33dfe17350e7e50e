import pino, { Logger } from 'pino';

/**
 * Structured JSON logs. Credentials are redacted by path, so a secret that
 * slips into a logged object never reaches stdout; the API key itself is only
 * ever handed to the RunPod client, which puts it in one header.
 */
export const REDACTED_PATHS: readonly string[] = [
  'apiKey',
  '*.apiKey',
  '*.*.apiKey',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'headers["x-rig-operator-token"]',
  '*.headers["x-rig-operator-token"]',
  'token',
  '*.token',
  'operatorToken',
  '*.operatorToken',
  'wakeToken',
  '*.wakeToken',
  'inferenceToken',
  '*.inferenceToken',
  '*.*.inferenceToken',
  'password',
  '*.password',
];

export type AppLogger = Logger;

export function createLogger(app: string, level: string = 'info'): AppLogger {
  return pino({
    name: app,
    level,
    base: { app },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
  });
}
