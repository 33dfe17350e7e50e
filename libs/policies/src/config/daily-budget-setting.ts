import { GUARD_RULES, readGuardText } from './guard-rule';
import { quoteConfigValue } from './quote-config-value';
import { readSetText, type Environment } from './read-environment';

export type DailyBudgetSetting =
  { readonly ok: true; readonly value: number | null } | { readonly ok: false; readonly error: string };

/**
 * DAILY_BUDGET_USD: unset (or blank) is off. Any other text must be a positive
 * dot decimal, else the configuration is refused: falling back to "off" would
 * silently remove the ceiling the operator believes in.
 */
export function readDailyBudget(env: Environment): DailyBudgetSetting {
  const text = readSetText(env, 'DAILY_BUDGET_USD');
  if (text === null) return { ok: true, value: null };
  const value = readGuardText(GUARD_RULES.dailyBudget, text);
  if (value !== null) return { ok: true, value };
  return {
    ok: false,
    error: `DAILY_BUDGET_USD=${quoteConfigValue(text)} is not ${GUARD_RULES.dailyBudget.expected}; refusing to start without the ceiling it was meant to set`,
  };
}
