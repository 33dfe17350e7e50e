import type { PodwardenConfig } from '@podwarden/policies';
import { tokensMatch } from './token-match';

/** Which tokens a write route accepts: every write takes the operator token; start also takes the wake-only token. */
export type AcceptedTokens = 'operator' | 'operator-or-wake';

export type GateVerdict =
  | { readonly kind: 'open' }
  | { readonly kind: 'allowed' }
  | { readonly kind: 'rejected' }
  | { readonly kind: 'no-operator-token' };

export type GateSettings = Pick<PodwardenConfig, 'operatorGate' | 'operatorToken' | 'wakeToken'>;

/**
 * The operator gate on cost-incurring routes. Fail closed: with the gate on
 * and no operator token configured nothing passes, not even the wake token,
 * because a half-configured gate is a misconfiguration, not an open door.
 */
export function judgeOperatorToken(
  settings: GateSettings,
  presented: string | undefined,
  accepts: AcceptedTokens,
): GateVerdict {
  if (settings.operatorGate === 'off') return { kind: 'open' };
  if (settings.operatorToken === null) return { kind: 'no-operator-token' };
  if (presented === undefined || presented === '') return { kind: 'rejected' };
  // Both comparisons always run, so which token matched does not show in the timing.
  const operator = tokensMatch(presented, settings.operatorToken);
  const wake = settings.wakeToken !== null && tokensMatch(presented, settings.wakeToken);
  const allowed = operator || (accepts === 'operator-or-wake' && wake);
  return allowed ? { kind: 'allowed' } : { kind: 'rejected' };
}
