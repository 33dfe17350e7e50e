import { TEST_REDIS_URL, uniqueTestPrefix } from '@podwarden/testing';

/** A distinctive fake RunPod key: scripts/test.sh greps every test log for it and fails if it appears. */
export const TEST_API_KEY = 'rpa_TESTKEY_must_never_be_logged_5f1c9e';
export const TEST_OPERATOR_TOKEN = 'op-token-for-tests-7d21';
export const TEST_WAKE_TOKEN = 'wake-token-for-tests-3b88';
/** The inference proxy's client token (RIG_INFERENCE_TOKEN), as an OpenAI client sends it. */
export const TEST_INFERENCE_TOKEN = 'sk-inference-token-for-tests-a6c3';
export const REDIS_URL = TEST_REDIS_URL;

/** Every test file gets its own key prefix, so parallel files and a developer's stack never collide. */
export const uniquePrefix = uniqueTestPrefix;
