/**
 * How one numeric guard reads its value and which range it accepts. A value
 * that fails the rule is never bent into range: the caller keeps its fallback,
 * so a typo can only leave a guard where it was, never loosen it.
 */
export interface GuardRule {
  readonly integer: boolean;
  readonly min: number;
  readonly minExclusive: boolean;
  readonly max: number;
  /** What was expected, as it reads after "is not", e.g. "a non-negative integer". */
  readonly expected: string;
  /** USD values print with cents so a warning quotes the default as the docs do (1.00). */
  readonly usd: boolean;
}

const INTEGER_TEXT = /^\d+$/;
// Dot decimal only: no sign, exponent, thousands separator or padding, so a
// European "1,50" is refused rather than read as 150 and admitting every GPU.
const DECIMAL_TEXT = /^\d+(\.\d+)?$/;

// Timers overflow above 2^31-1 ms and Node then fires them after 1 ms, which
// would turn a huge interval into a tight loop against RunPod.
const TIMER_MAX_MS = 2_147_483_647;
const TIMER_MAX_SECONDS = Math.floor(TIMER_MAX_MS / 1000);

function integerRule(min: number, max: number, expected: string): GuardRule {
  return { integer: true, min, minExclusive: false, max, expected, usd: false };
}

function decimalRule(min: number, minExclusive: boolean, expected: string, usd = false): GuardRule {
  return { integer: false, min, minExclusive, max: Number.POSITIVE_INFINITY, expected, usd };
}

export const GUARD_RULES = {
  port: integerRule(1, 65535, 'a port number in 1..65535'),
  nonNegativeInteger: integerRule(0, Number.POSITIVE_INFINITY, 'a non-negative integer'),
  positiveInteger: integerRule(1, Number.POSITIVE_INFINITY, 'an integer ≥ 1'),
  // A 0 cap refuses every GPU: tighter, never looser, so it is accepted.
  pricePerHour: decimalRule(0, false, 'a non-negative dot decimal such as 1.50', true),
  dailyBudget: decimalRule(0, true, 'a positive dot decimal such as 25.00', true),
  positiveDecimal: decimalRule(0, true, 'a positive decimal such as 0.5'),
  nonNegativeDecimal: decimalRule(0, false, 'a non-negative decimal such as 0.5'),
  keepAliveMinutes: { ...decimalRule(0, true, 'a decimal above 0 and at most 1440'), max: 1440 },
  checkSeconds: integerRule(1, TIMER_MAX_SECONDS, `an integer in 1..${TIMER_MAX_SECONDS}`),
  timerMilliseconds: integerRule(1, TIMER_MAX_MS, `an integer in 1..${TIMER_MAX_MS}`),
  timerSeconds: integerRule(0, TIMER_MAX_SECONDS, `an integer in 0..${TIMER_MAX_SECONDS}`),
} as const satisfies Record<string, GuardRule>;

/** The number a rule accepts, or null when the number is out of its range. */
export function acceptGuardNumber(rule: GuardRule, value: number): number | null {
  if (!Number.isFinite(value)) return null;
  if (rule.integer && !Number.isSafeInteger(value)) return null;
  if (rule.minExclusive ? value <= rule.min : value < rule.min) return null;
  if (value > rule.max) return null;
  // -0 from JSON would print as 0 anyway; keep arithmetic boring.
  return value === 0 ? 0 : value;
}

/** The number a rule accepts from text, or null when the text is not exactly such a number. */
export function readGuardText(rule: GuardRule, text: string): number | null {
  const pattern = rule.integer ? INTEGER_TEXT : DECIMAL_TEXT;
  if (!pattern.test(text)) return null;
  return acceptGuardNumber(rule, Number(text));
}

/** A guard value as a warning quotes it: USD with cents (1.00), anything else as JS prints it. */
export function formatGuardNumber(rule: GuardRule, value: number): string {
  const cents = value.toFixed(2);
  return rule.usd && Number(cents) === value ? cents : String(value);
}
