export const REDACTED = '[redacted]';

/**
 * Removes every occurrence of the secret from a text that may leave the client
 * (a log field, a returned detail or reason). RunPod could echo a bad key back
 * in a problem detail, so everything read from a response passes through here.
 */
export function redactSecret(text: string, secret: string | null): string {
  if (secret === null || secret === '') {
    return text;
  }
  return text.split(secret).join(REDACTED);
}
