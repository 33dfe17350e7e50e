import { judgeOperatorToken, type GateSettings } from './operator-gate';
import { tokensMatch } from './token-match';

const configured: GateSettings = { operatorGate: 'on', operatorToken: 'op-token', wakeToken: 'wake-token' };

describe(judgeOperatorToken.name, () => {
  it.each([
    ['the operator token opens an operator route', configured, 'op-token', 'operator', 'allowed'],
    ['the operator token opens start', configured, 'op-token', 'operator-or-wake', 'allowed'],
    ['the wake token opens start', configured, 'wake-token', 'operator-or-wake', 'allowed'],
    ['the wake token does not open stop', configured, 'wake-token', 'operator', 'rejected'],
    ['a missing token is rejected', configured, undefined, 'operator', 'rejected'],
    ['an empty token is rejected', configured, '', 'operator-or-wake', 'rejected'],
    ['a wrong token is rejected', configured, 'op-token ', 'operator', 'rejected'],
    ['a prefix of the token is rejected', configured, 'op-', 'operator', 'rejected'],
    [
      'an empty presented token never matches an unset wake token',
      { ...configured, wakeToken: null },
      '',
      'operator-or-wake',
      'rejected',
    ],
    [
      'gate on without an operator token is closed, even to the wake token',
      { ...configured, operatorToken: null },
      'wake-token',
      'operator-or-wake',
      'no-operator-token',
    ],
    [
      'gate off is open without a token',
      { ...configured, operatorGate: 'off' },
      undefined,
      'operator',
      'open',
    ],
    [
      'gate off is open whatever token is sent',
      { operatorGate: 'off', operatorToken: null, wakeToken: null },
      'junk',
      'operator',
      'open',
    ],
  ] as const)('%s', (_rule, settings, presented, accepts, verdict) => {
    expect(judgeOperatorToken(settings, presented, accepts).kind).toBe(verdict);
  });
});

describe(tokensMatch.name, () => {
  it.each([
    ['equal tokens match', 'abc', 'abc', true],
    ['different tokens of equal length do not', 'abc', 'abd', false],
    ['tokens of different length do not (and do not throw)', 'abc', 'abcdef', false],
    ['case matters', 'ABC', 'abc', false],
  ])('%s', (_rule, presented, expected, match) => {
    expect(tokensMatch(presented, expected)).toBe(match);
  });
});
