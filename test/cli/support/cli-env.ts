import type { Stack } from '../../support/stack';
import { TEST_OPERATOR_TOKEN } from '../../support/test-env';

/** The CLI's environment against a stack (or a front in front of it): its URL and the operator token. */
export function cliEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PODWARDEN_URL: url, PODWARDEN_TOKEN: TEST_OPERATOR_TOKEN, ...extra };
}

export function stackEnv(stack: Stack, extra: Record<string, string> = {}): Record<string, string> {
  return cliEnv(stack.gatewayUrl, extra);
}

/** Idle-monitor settings for the CLI specs: fast ticks, and no idle or boot-grace stop within a test. */
export const CLI_IDLE_ENV: Record<string, string> = {
  CHECK_SECONDS: '1',
  IDLE_MINUTES: '30',
  RUNPOD_BOOT_GRACE_MINUTES: '30',
  MAX_RUNTIME_MINUTES: '360',
};
