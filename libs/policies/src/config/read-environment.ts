import { formatGuardNumber, GuardRule, readGuardText } from './guard-rule';
import { quoteConfigValue } from './quote-config-value';

// Hand-written, not a schema: each variable's rule keeps the safer fallback and
// warns on a value it refuses, so an invalid value never widens a guard.
export type Environment = Readonly<Record<string, string | undefined>>;

/** The variable's raw text, or null when it is unset or blank (blank means unset for every variable). */
export function readSetText(env: Environment, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? null : raw;
}

/** A plain string setting, trimmed; the fallback when unset or blank. */
export function readString(env: Environment, name: string, fallback: string): string {
  return readSetText(env, name)?.trim() ?? fallback;
}

/** A secret, trimmed (a mounted secret file often ends in a newline); null when unset or blank. */
export function readSecret(env: Environment, name: string): string | null {
  return readSetText(env, name)?.trim() ?? null;
}

/** Comma-separated list, trimmed, blanks dropped, kept as given. */
export function readList(env: Environment, name: string): string[] {
  return splitList(readSetText(env, name) ?? '');
}

export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * A numeric guard. Its raw text must match the rule exactly (no trimming: " 1"
 * is refused like "1e3"); otherwise the fallback stays and one warning names
 * the variable, the bad value and the fallback.
 */
export function readGuard(
  env: Environment,
  name: string,
  rule: GuardRule,
  fallback: number,
  warnings: string[],
): number {
  const text = readSetText(env, name);
  if (text === null) return fallback;
  const value = readGuardText(rule, text);
  if (value !== null) return value;
  warnings.push(
    `${name}=${quoteConfigValue(text)} is not ${rule.expected}; using ${formatGuardNumber(rule, fallback)}`,
  );
  return fallback;
}

/** A numeric setting that is off when unset; a bad value leaves it off with a warning saying so. */
export function readOptionalGuard(
  env: Environment,
  name: string,
  rule: GuardRule,
  offMeaning: string,
  warnings: string[],
): number | null {
  const text = readSetText(env, name);
  if (text === null) return null;
  const value = readGuardText(rule, text);
  if (value !== null) return value;
  warnings.push(`${name}=${quoteConfigValue(text)} is not ${rule.expected}; using unset (${offMeaning})`);
  return null;
}

/**
 * One of a fixed set of words, case-insensitive; the fallback with a warning
 * otherwise. `choices` maps each accepted lower-case word to its value, in the
 * order the warning lists them.
 */
export function readChoice<T>(
  env: Environment,
  name: string,
  choices: ReadonlyMap<string, T>,
  fallback: T,
  fallbackWord: string,
  warnings: string[],
): T {
  const text = readSetText(env, name);
  if (text === null) return fallback;
  const chosen = choices.get(text.toLowerCase());
  if (chosen !== undefined) return chosen;
  const accepted = [...choices.keys()].join(', ');
  warnings.push(`${name}=${quoteConfigValue(text)} is not one of ${accepted}; using ${fallbackWord}`);
  return fallback;
}
