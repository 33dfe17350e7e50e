import { DEFAULTS } from './config-defaults';
import type { BillingSettings } from './config-types';
import { GUARD_RULES } from './guard-rule';
import { Environment, readGuard } from './read-environment';

/** The billing reconcile's period and lag allowance, and when a boot is diagnosed. */
export function readBillingSettings(env: Environment, warnings: string[]): BillingSettings {
  return {
    // A whole number of seconds from 1, as CHECK_SECONDS; the default (900) suits RunPod's hourly billing.
    reconcileSeconds: readGuard(
      env,
      'BILLING_RECONCILE_SECONDS',
      GUARD_RULES.checkSeconds,
      DEFAULTS.BILLING_RECONCILE_SECONDS,
      warnings,
    ),
    lagMinutes: readGuard(
      env,
      'BILLING_LAG_MINUTES',
      GUARD_RULES.nonNegativeDecimal,
      DEFAULTS.BILLING_LAG_MINUTES,
      warnings,
    ),
    diagnoseAfterTicks: readGuard(
      env,
      'BOOT_DIAGNOSE_TICKS',
      GUARD_RULES.nonNegativeInteger,
      DEFAULTS.BOOT_DIAGNOSE_TICKS,
      warnings,
    ),
  };
}
