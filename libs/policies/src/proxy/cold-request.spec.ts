import {
  decideColdRequest,
  heldWakeVerdict,
  isPodProxyNotServing,
  MAX_RETRY_AFTER_SECONDS,
  retryAfterSeconds,
  type ColdRequestDecision,
  type HeldWakeVerdict,
} from './cold-request';

describe(decideColdRequest.name, () => {
  it.each<[string, number, number, number, ColdRequestDecision]>([
    ['hold 0 sheds at once', 0, 0, 100, { kind: 'shed', why: 'hold-disabled' }],
    ['a hold with room holds for its seconds', 30, 0, 100, { kind: 'hold', holdMs: 30_000 }],
    ['the last free place still holds', 30, 99, 100, { kind: 'hold', holdMs: 30_000 }],
    ['a full hold sheds', 30, 100, 100, { kind: 'shed', why: 'hold-full' }],
    ['a max of 0 never holds', 30, 0, 0, { kind: 'shed', why: 'hold-full' }],
  ])('%s', (_what, holdSeconds, held, max, expected) => {
    expect(decideColdRequest(holdSeconds, held, max)).toEqual(expected);
  });
});

describe(retryAfterSeconds.name, () => {
  const now = 1_000_000;
  it.each<[string, number | null, number]>([
    ['no estimate: the fallback', null, 30],
    ['an estimate 90.2 s out rounds up', now + 90_200, 91],
    ['an estimate already past: at least 1', now - 5_000, 1],
    ['an estimate exactly now: at least 1', now, 1],
    ['an estimate far out: capped', now + 3_600_000, MAX_RETRY_AFTER_SECONDS],
  ])('%s', (_what, expectedReadyAt, expected) => {
    expect(retryAfterSeconds(expectedReadyAt, now, 30)).toBe(expected);
  });
});

describe(heldWakeVerdict.name, () => {
  it.each<[string, Parameters<typeof heldWakeVerdict>[0], HeldWakeVerdict]>([
    [
      'Started keeps holding',
      { outcome: 'Started', failureKind: null, message: 'm' },
      { kind: 'keep-holding' },
    ],
    [
      'Created keeps holding',
      { outcome: 'Created', failureKind: null, message: 'm' },
      { kind: 'keep-holding' },
    ],
    [
      'AlreadyRunning keeps holding',
      { outcome: 'AlreadyRunning', failureKind: null, message: 'm' },
      { kind: 'keep-holding' },
    ],
    [
      'Waiting keeps holding',
      { outcome: 'Waiting', failureKind: null, message: 'm' },
      { kind: 'keep-holding' },
    ],
    [
      'a refusal fails, named as one',
      { outcome: 'Failed', failureKind: 'refused', message: 'daily budget reached' },
      { kind: 'fail', refused: true, message: 'daily budget reached' },
    ],
    [
      'a provider failure fails',
      { outcome: 'Failed', failureKind: 'provider', message: 'no GPU' },
      { kind: 'fail', refused: false, message: 'no GPU' },
    ],
  ])('%s', (_what, result, expected) => {
    expect(heldWakeVerdict(result)).toEqual(expected);
  });
});

describe(isPodProxyNotServing.name, () => {
  it.each<[number, string | null, boolean]>([
    [404, 'text/html; charset=utf-8', true],
    [502, 'text/html', true],
    [503, 'TEXT/HTML', true],
    [404, 'application/json', false],
    [502, 'application/json', false],
    [200, 'text/html', false],
    [500, 'text/html', false],
    [404, null, false],
  ])('%d %j → %j', (status, contentType, expected) => {
    expect(isPodProxyNotServing(status, contentType)).toBe(expected);
  });
});
