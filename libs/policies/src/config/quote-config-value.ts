const MAX_QUOTED_LENGTH = 80;

/**
 * A configured value as a warning or error quotes it: JSON-escaped, so a
 * newline or control character cannot forge a second log line, and cut short,
 * so a pasted blob cannot flood the log. Never pass a secret here.
 */
export function quoteConfigValue(value: unknown): string {
  const quoted = JSON.stringify(value) ?? String(value);
  return quoted.length > MAX_QUOTED_LENGTH ? `${quoted.slice(0, MAX_QUOTED_LENGTH)}…` : quoted;
}
