import { REDACTED_PATHS } from './logger';

/** The same censor our JSON logs use. */
export const REDACTED_TEXT = '[redacted]';

// The keys our own logs redact by path (apiKey, token, password, authorization…), as words.
const LOGGED_SECRET_KEYS = [
  ...new Set(
    REDACTED_PATHS.map(
      (path) =>
        path
          .split('.')
          .pop()
          ?.replace(/^headers\["|"\]$/g, '') ?? '',
    ),
  ),
].filter((key) => key !== '' && key !== '*');

/** Common credential shapes in free text: provider keys, bearer tokens, AWS keys, KEY=/TOKEN=/PASSWORD= assignments. */
const SECRET_PATTERNS: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\bhf_[A-Za-z0-9]{8,}/g,
  /\brpa_[A-Za-z0-9_]{8,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{16,}/g,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /(\bBearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  /(\bBasic\s+)[A-Za-z0-9+/=]{8,}/gi,
  /(\b[A-Za-z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|CREDENTIALS?)\b\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s),;}]+)/gi,
  new RegExp(`(\\b(?:${LOGGED_SECRET_KEYS.join('|')})\\b"?\\s*[=:]\\s*)("[^"]*"|'[^']*'|[^\\s),;}]+)`, 'gi'),
];

/**
 * Redacts anything secret-shaped from text a pod (or anyone) wrote: the known secrets (raw or encoded),
 * the keys our logs redact, and common credential patterns. Applied before a line is stored or shown.
 */
export function redactText(text: string, knownSecrets: readonly (string | null)[] = []): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (secret === null || secret.length < 4) continue;
    for (const form of [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')]) {
      out = out.split(form).join(REDACTED_TEXT);
    }
  }
  for (const pattern of SECRET_PATTERNS) {
    out = out.replace(pattern, (match: string, prefix?: unknown) =>
      typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}${REDACTED_TEXT}` : REDACTED_TEXT,
    );
  }
  return out;
}
