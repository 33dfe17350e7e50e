import {
  classifyLastWake,
  httpStatusForWake,
  isSuccessfulWake,
  type LastWakeOutcome,
  type WakeEnding,
  type WakeOutcome,
} from './last-wake';

describe('classifyLastWake', () => {
  it.each<[string, WakeEnding, LastWakeOutcome]>([
    ['a pod already serving is a success', { kind: 'returned', outcome: 'AlreadyRunning' }, 'Succeeded'],
    ['a started pod is a success', { kind: 'returned', outcome: 'Started' }, 'Succeeded'],
    ['a created pod is a success', { kind: 'returned', outcome: 'Created' }, 'Succeeded'],
    [
      'a success stays a success whatever failure kind tags along',
      { kind: 'returned', outcome: 'Created', failureKind: 'refused' },
      'Succeeded',
    ],
    ['Waiting ran out of poll budget: timed out', { kind: 'returned', outcome: 'Waiting' }, 'TimedOut'],
    [
      'Waiting is timed out even when tagged refused (something may be billing)',
      { kind: 'returned', outcome: 'Waiting', failureKind: 'refused' },
      'TimedOut',
    ],
    [
      'a fail-closed guard that declined is a refusal',
      { kind: 'returned', outcome: 'Failed', failureKind: 'refused' },
      'Refused',
    ],
    [
      'RunPod rejecting or breaking the attempt is a failure',
      { kind: 'returned', outcome: 'Failed', failureKind: 'provider' },
      'Failed',
    ],
    [
      'a failure that does not say it was refused is a failure, not a refusal',
      { kind: 'returned', outcome: 'Failed' },
      'Failed',
    ],
    ['a wake that threw is a failure', { kind: 'threw' }, 'Failed'],
  ])('%s', (_rule, ending, expected) => {
    expect(classifyLastWake(ending)).toBe(expected);
  });
});

describe('wake outcome mapping', () => {
  it.each<[WakeOutcome, boolean, 200 | 202 | 409]>([
    ['AlreadyRunning', true, 200],
    ['Started', true, 200],
    ['Created', true, 200],
    ['Waiting', false, 202],
    ['Failed', false, 409],
  ])('%s: successful=%s, HTTP %i', (outcome, successful, httpStatus) => {
    expect(isSuccessfulWake(outcome)).toBe(successful);
    expect(httpStatusForWake(outcome)).toBe(httpStatus);
  });
});
