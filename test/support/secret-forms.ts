import { TEST_API_KEY, TEST_INFERENCE_TOKEN, TEST_OPERATOR_TOKEN, TEST_WAKE_TOKEN } from './test-env';

/** Each secret of the test stack as it could leak: raw, URL-encoded, base64 and base64url. */
export function secretForms(): string[] {
  const forms = [TEST_API_KEY, TEST_OPERATOR_TOKEN, TEST_WAKE_TOKEN, TEST_INFERENCE_TOKEN].flatMap(
    (secret) => {
      const bytes = Buffer.from(secret, 'utf8');
      return [secret, encodeURIComponent(secret), bytes.toString('base64'), bytes.toString('base64url')];
    },
  );
  return [...new Set(forms)];
}

/** The secret forms found in a text (empty when none). */
export function leakedSecrets(text: string): string[] {
  return secretForms().filter((form) => text.includes(form));
}
