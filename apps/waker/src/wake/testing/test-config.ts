import { parseConfig, type PodConfig, type PodwardenConfig } from '@podwarden/policies';
import { OUR_VOLUME } from '@podwarden/testing';

/** Distinctive, so a test can prove it never reaches a log line. */
export const TEST_API_KEY = 'rpa_TESTKEY_never_log_me_4f1c9e';

export const TEST_POD_NAME = 'qwen';

/** Small polling bounds: scenarios reach "after max polls" in a handful of rounds. */
export const TEST_MAX_POLLS = 4;
export const TEST_POLL_INTERVAL_MS = 7;
export const TEST_MAX_RETRY_AFTER_SECONDS = 12;

export const TEST_ENVIRONMENT: Readonly<Record<string, string>> = {
  RUNPOD_API_KEY: TEST_API_KEY,
  RUNPOD_VOLUME_ID: OUR_VOLUME,
  RUNPOD_TEMPLATE_ID: 'tmpl-qwen',
  RUNPOD_DATACENTER_ID: 'EU-RO-1',
  RUNPOD_POD_NAME: TEST_POD_NAME,
  RUNPOD_MAX_PRICE_PER_HOUR: '2.00',
  RUNPOD_MIN_VRAM_GB: '32',
  WAKE_MAX_POLLS: String(TEST_MAX_POLLS),
  WAKE_POLL_INTERVAL_MS: String(TEST_POLL_INTERVAL_MS),
  WAKE_MAX_RETRY_AFTER_SECONDS: String(TEST_MAX_RETRY_AFTER_SECONDS),
  // Zero: a create in doubt is dropped at the first re-read, so the retry scenarios re-post at once.
  WAKE_CREATE_SETTLE_SECONDS: '0',
  POD_NAME_PREFIX: 'podwarden-',
};

/** The config the apps would parse from TEST_ENVIRONMENT plus `overrides`; throws on anything but a clean parse. */
export function testConfig(overrides: Readonly<Record<string, string | undefined>> = {}): PodwardenConfig {
  const result = parseConfig({ ...TEST_ENVIRONMENT, ...overrides }, null);
  if (!result.ok) throw new Error(`test config does not parse: ${result.error}`);
  if (result.warnings.length > 0) throw new Error(`test config has warnings: ${result.warnings.join('; ')}`);
  return result.config;
}

export function testPod(config: PodwardenConfig, overrides: Partial<PodConfig> = {}): PodConfig {
  return { ...config.pods[0], ...overrides };
}
