import type { Produced } from './gateway-harness';

/** Secrets every harness configures, so a spec can assert none of them ever leaves the process. */
export const SECRETS = {
  RUNPOD_API_KEY: 'rk-test-api-key-must-never-leak',
  RIG_OPERATOR_TOKEN: 'op-test-token-must-never-leak',
  RIG_WAKE_TOKEN: 'wake-test-token-must-never-leak',
} as const;

/**
 * The configured secrets found in what a spec produced: answers (bodies and
 * headers) and log lines. A scan of nothing proves nothing, so an empty
 * stretch of answers or log lines is an error, not a pass.
 */
export function leakedSecrets(produced: Produced): string[] {
  if (produced.answers.length === 0) throw new Error('secret scan: no answers were produced');
  if (produced.logLines.length === 0) throw new Error('secret scan: no log lines were produced');
  const answers = produced.answers.map((answer) => `${JSON.stringify([...answer.headers])}\n${answer.text}`);
  const everything = [...answers, ...produced.logLines].join('\n');
  return Object.entries(SECRETS)
    .filter(([, secret]) => everything.includes(secret))
    .map(([name]) => name);
}
