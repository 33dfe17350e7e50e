export const REDACTED = '[redacted]';

/** The forms a secret travels in besides itself: URL-encoded, and base64 as in a Basic header or a token. */
function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = [secret, encodeURIComponent(secret), bytes.toString('base64'), bytes.toString('base64url')];
  return [...new Set(forms.filter((form) => form !== ''))];
}

/**
 * Removes the secret, raw or encoded, from any text that may leave the client (a log field, a detail):
 * RunPod could echo a bad key back in a problem detail, so everything read from a response passes here.
 */
export function redactSecret(text: string, secret: string | null): string {
  if (secret === null || secret === '') {
    return text;
  }
  let redacted = text;
  for (const form of secretForms(secret)) {
    redacted = redacted.split(form).join(REDACTED);
  }
  return redacted;
}

/**
 * A JSON body can spell the secret with `\u` escapes that only become the key
 * once parsed; such a body is re-serialised (which writes no escapes for
 * printable characters) and redacted again.
 */
export function redactSecretInBody(body: string, secret: string | null): string {
  const redacted = redactSecret(body, secret);
  if (secret === null || secret === '' || !redacted.includes('\\u')) {
    return redacted;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(redacted);
  } catch {
    return redacted;
  }
  const reserialised = JSON.stringify(parsed);
  const clean = redactSecret(reserialised, secret);
  return clean === reserialised ? redacted : clean;
}
