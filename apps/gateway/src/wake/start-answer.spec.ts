import type { WakeJobResult } from '@podwarden/platform';
import { answerFromJobFailure, answerFromResult, answerWhileInFlight } from './start-answer';

const result = (overrides: Partial<WakeJobResult>): WakeJobResult => ({
  name: 'qwen',
  attemptId: 'att-1',
  outcome: 'Started',
  failureKind: null,
  podId: 'p1',
  gpuId: null,
  pricePerHour: null,
  proxyUrl: 'https://p1-8000.proxy.runpod.net',
  message: 'started',
  joined: false,
  ...overrides,
});

describe(answerFromResult.name, () => {
  it.each([
    ['AlreadyRunning', 200],
    ['Started', 200],
    ['Created', 200],
    ['Waiting', 202],
  ] as const)('%s answers %i with the start body', (outcome, status) => {
    const answer = answerFromResult('qwen', result({ outcome }));
    expect(answer).toMatchObject({
      kind: 'answer',
      status,
      body: { outcome, attemptId: 'att-1', name: 'qwen' },
    });
  });

  it('Failed is a 409 problem whose detail is the wake message', () => {
    const answer = answerFromResult(
      'qwen',
      result({ outcome: 'Failed', failureKind: 'refused', message: 'no GPU' }),
    );
    expect(answer).toEqual({
      kind: 'problem',
      problem: expect.objectContaining({
        status: 409,
        detail: 'no GPU',
        outcome: 'Failed',
        attemptId: 'att-1',
      }),
    });
  });

  it('an outcome this gateway does not know is never reported as a success', () => {
    const foreign = result({ outcome: 'Exploded' as WakeJobResult['outcome'] });
    expect(answerFromResult('qwen', foreign).kind).toBe('problem');
  });
});

describe(answerFromJobFailure.name, () => {
  it('is a 409 Failed problem carrying the reason and the attempt', () => {
    expect(answerFromJobFailure('qwen', 'job-3', 'boom')).toEqual({
      kind: 'problem',
      problem: expect.objectContaining({
        status: 409,
        detail: 'boom',
        outcome: 'Failed',
        attemptId: 'job-3',
      }),
    });
  });
});

describe(answerWhileInFlight.name, () => {
  it('is 202 Waiting with no pod named, using the progress message when there is one', () => {
    expect(answerWhileInFlight('qwen', 'job-3', null)).toMatchObject({
      status: 202,
      body: {
        outcome: 'Waiting',
        attemptId: 'job-3',
        podId: null,
        proxyUrl: null,
        message: 'wake in flight',
      },
    });
    expect(answerWhileInFlight('qwen', 'job-3', 'observing p1')).toMatchObject({
      body: { message: 'observing p1' },
    });
  });
});
