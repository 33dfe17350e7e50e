import fc from 'fast-check';
import {
  advanceCreateWalk,
  classifyCreateAttempt,
  CREATE_RETRY_BUDGET,
  describeCreateEnding,
  replayCreateWalk,
  startCreateWalk,
  type CreateAttemptClass,
  type CreateAttemptResult,
  type CreateWalkEnded,
  type CreateWalkState,
  type CreateWalkStep,
} from './create-walk';

const answer = (httpStatus: number, podId: string | null = null): CreateAttemptResult => ({
  httpStatus,
  podId,
});
const state = (
  candidateCount: number,
  candidateIndex: number,
  retriesLeft: number,
  calls: number,
): CreateWalkState => ({
  candidateCount,
  candidateIndex,
  retriesLeft,
  calls,
});

describe('classifyCreateAttempt', () => {
  it.each<[number, string | null, CreateAttemptClass]>([
    [201, 'pod-1', 'Created'],
    [200, 'pod-1', 'Created'],
    [202, 'pod-1', 'Created'],
    [204, 'pod-1', 'Created'],
    [299, 'pod-1', 'Created'],
    [201, null, 'CreatedWithoutId'],
    [201, '', 'CreatedWithoutId'],
    [201, '   ', 'CreatedWithoutId'],
    [200, null, 'CreatedWithoutId'],
    [299, '', 'CreatedWithoutId'],
    [400, null, 'TryNextCandidate'],
    [403, null, 'TryNextCandidate'],
    [400, 'pod-1', 'TryNextCandidate'],
    [402, null, 'Abort'],
    [422, null, 'Abort'],
    [429, null, 'RetrySameCandidate'],
    [500, null, 'RetrySameCandidate'],
    [502, null, 'RetrySameCandidate'],
    [503, 'pod-1', 'RetrySameCandidate'],
    [504, null, 'RetrySameCandidate'],
    [599, null, 'RetrySameCandidate'],
  ])('HTTP %i with pod id %j → %s', (httpStatus, podId, expected) => {
    expect(classifyCreateAttempt(httpStatus, podId)).toBe(expected);
  });

  it.each([0, -1, 100, 199, 300, 301, 304, 401, 404, 405, 409, 428, 430, 499, 600, 999, Number.NaN])(
    'HTTP %d is not understood, so the walk aborts rather than guess (0 = transport failure, never retried blind)',
    (httpStatus) => {
      expect(classifyCreateAttempt(httpStatus, null)).toBe('Abort');
      expect(classifyCreateAttempt(httpStatus, 'pod-1')).toBe('Abort');
    },
  );
});

describe('create walk', () => {
  it('shares one budget of two retries across the whole walk', () => {
    expect(CREATE_RETRY_BUDGET).toBe(2);
  });

  it.each([0, -1, 0.5])('with %d candidates the walk ends Exhausted before any call', (count) => {
    expect(startCreateWalk(count)).toEqual<CreateWalkStep>({
      kind: 'ended',
      ending: 'Exhausted',
      lastStatus: null,
      state: state(count, 0, 2, 0),
    });
  });

  it('starts by posting the first candidate, not as a retry, with the full budget', () => {
    expect(startCreateWalk(3)).toEqual<CreateWalkStep>({
      kind: 'post',
      candidateIndex: 0,
      retry: false,
      state: state(3, 0, 2, 0),
    });
  });

  it.each<[string, number, CreateAttemptResult[], CreateWalkStep[]]>([
    [
      'the incident: a lone candidate refused with 400 ends Exhausted',
      1,
      [answer(400)],
      [
        { kind: 'post', candidateIndex: 0, retry: false, state: state(1, 0, 2, 0) },
        { kind: 'ended', ending: 'Exhausted', lastStatus: 400, state: state(1, 0, 2, 1) },
      ],
    ],
    [
      '201 on the first candidate creates',
      2,
      [answer(201, 'pod-9')],
      [
        { kind: 'post', candidateIndex: 0, retry: false, state: state(2, 0, 2, 0) },
        { kind: 'created', candidateIndex: 0, podId: 'pod-9', state: state(2, 0, 2, 1) },
      ],
    ],
    [
      'an off-spec 200 with an id still creates (the pod bills), and the id is trimmed',
      1,
      [answer(200, ' pod-9 ')],
      [
        { kind: 'post', candidateIndex: 0, retry: false, state: state(1, 0, 2, 0) },
        { kind: 'created', candidateIndex: 0, podId: 'pod-9', state: state(1, 0, 2, 1) },
      ],
    ],
    [
      '400 then 403 move on to the next candidate, and 201 on the third creates',
      3,
      [answer(400), answer(403), answer(201, 'pod-3')],
      [
        { kind: 'post', candidateIndex: 0, retry: false, state: state(3, 0, 2, 0) },
        { kind: 'post', candidateIndex: 1, retry: false, state: state(3, 1, 2, 1) },
        { kind: 'post', candidateIndex: 2, retry: false, state: state(3, 2, 2, 2) },
        { kind: 'created', candidateIndex: 2, podId: 'pod-3', state: state(3, 2, 2, 3) },
      ],
    ],
    [
      'every candidate refused ends Exhausted with the last status',
      2,
      [answer(400), answer(403)],
      [
        { kind: 'post', candidateIndex: 0, retry: false, state: state(2, 0, 2, 0) },
        { kind: 'post', candidateIndex: 1, retry: false, state: state(2, 1, 2, 1) },
        { kind: 'ended', ending: 'Exhausted', lastStatus: 403, state: state(2, 1, 2, 2) },
      ],
    ],
    [
      '402 aborts at once, leaving later candidates untried',
      3,
      [answer(402), answer(201, 'never')],
      [
        { kind: 'post', candidateIndex: 0, retry: false, state: state(3, 0, 2, 0) },
        { kind: 'ended', ending: 'Aborted', lastStatus: 402, state: state(3, 0, 2, 1) },
      ],
    ],
    [
      '422 after a refused candidate aborts',
      3,
      [answer(400), answer(422)],
      [
        { kind: 'post', candidateIndex: 0, retry: false, state: state(3, 0, 2, 0) },
        { kind: 'post', candidateIndex: 1, retry: false, state: state(3, 1, 2, 1) },
        { kind: 'ended', ending: 'Aborted', lastStatus: 422, state: state(3, 1, 2, 2) },
      ],
    ],
    [
      'a transport failure (0) aborts: a timed-out create may have placed a pod',
      2,
      [answer(0)],
      [
        { kind: 'post', candidateIndex: 0, retry: false, state: state(2, 0, 2, 0) },
        { kind: 'ended', ending: 'Aborted', lastStatus: 0, state: state(2, 0, 2, 1) },
      ],
    ],
    [
      'a 2xx without an id ends CreatedWithoutId, never posting again',
      2,
      [answer(201, null), answer(201, 'pod-2')],
      [
        { kind: 'post', candidateIndex: 0, retry: false, state: state(2, 0, 2, 0) },
        { kind: 'ended', ending: 'CreatedWithoutId', lastStatus: 201, state: state(2, 0, 2, 1) },
      ],
    ],
    [
      '429 and 503 retry the same candidate, spending the budget to zero, then 201 creates',
      2,
      [answer(429), answer(503), answer(201, 'pod-1')],
      [
        { kind: 'post', candidateIndex: 0, retry: false, state: state(2, 0, 2, 0) },
        { kind: 'post', candidateIndex: 0, retry: true, state: state(2, 0, 1, 1) },
        { kind: 'post', candidateIndex: 0, retry: true, state: state(2, 0, 0, 2) },
        { kind: 'created', candidateIndex: 0, podId: 'pod-1', state: state(2, 0, 0, 3) },
      ],
    ],
    [
      'a third retryable answer ends RetriesExhausted instead of falling through to the next candidate',
      3,
      [answer(429), answer(429), answer(429), answer(201, 'never')],
      [
        { kind: 'post', candidateIndex: 0, retry: false, state: state(3, 0, 2, 0) },
        { kind: 'post', candidateIndex: 0, retry: true, state: state(3, 0, 1, 1) },
        { kind: 'post', candidateIndex: 0, retry: true, state: state(3, 0, 0, 2) },
        { kind: 'ended', ending: 'RetriesExhausted', lastStatus: 429, state: state(3, 0, 0, 3) },
      ],
    ],
    [
      'the budget is shared across candidates and not refilled on a candidate change',
      3,
      [answer(500), answer(400), answer(503), answer(502)],
      [
        { kind: 'post', candidateIndex: 0, retry: false, state: state(3, 0, 2, 0) },
        { kind: 'post', candidateIndex: 0, retry: true, state: state(3, 0, 1, 1) },
        { kind: 'post', candidateIndex: 1, retry: false, state: state(3, 1, 1, 2) },
        { kind: 'post', candidateIndex: 1, retry: true, state: state(3, 1, 0, 3) },
        { kind: 'ended', ending: 'RetriesExhausted', lastStatus: 502, state: state(3, 1, 0, 4) },
      ],
    ],
    [
      'the longest walk is candidates + 2 calls',
      3,
      [answer(429), answer(400), answer(429), answer(400), answer(400)],
      [
        { kind: 'post', candidateIndex: 0, retry: false, state: state(3, 0, 2, 0) },
        { kind: 'post', candidateIndex: 0, retry: true, state: state(3, 0, 1, 1) },
        { kind: 'post', candidateIndex: 1, retry: false, state: state(3, 1, 1, 2) },
        { kind: 'post', candidateIndex: 1, retry: true, state: state(3, 1, 0, 3) },
        { kind: 'post', candidateIndex: 2, retry: false, state: state(3, 2, 0, 4) },
        { kind: 'ended', ending: 'Exhausted', lastStatus: 400, state: state(3, 2, 0, 5) },
      ],
    ],
  ])('%s', (_rule, count, answers, steps) => {
    const replay = replayCreateWalk(count, answers);
    expect(replay.steps).toEqual(steps);
    expect(replay.calls).toBe(steps.length - 1);
  });

  it('a replay with no candidates makes no call whatever the scripted answers', () => {
    expect(replayCreateWalk(0, [answer(201, 'pod-1')])).toEqual({
      steps: [{ kind: 'ended', ending: 'Exhausted', lastStatus: null, state: state(0, 0, 2, 0) }],
      calls: 0,
    });
  });

  it('a replay that runs out of answers stops on the pending post', () => {
    const replay = replayCreateWalk(2, [answer(400)]);
    expect(replay.calls).toBe(1);
    expect(replay.steps.at(-1)).toEqual({
      kind: 'post',
      candidateIndex: 1,
      retry: false,
      state: state(2, 1, 2, 1),
    });
  });

  it.each<[string, CreateWalkState]>([
    ['an ended walk (Exhausted)', state(1, 0, 2, 1)],
    ['an ended walk with no candidates', state(0, 0, 2, 0)],
    ['a walk whose retries ran out', state(3, 0, 0, 3)],
    ['a created walk', state(2, 1, 1, 3)],
    ['a candidate index past the list', state(1, 1, 2, 1)],
    ['a negative candidate index', state(2, -1, 2, -1)],
    ['negative retries', state(5, 0, -1, 3)],
    ['more retries than the budget', state(3, 1, 3, 0)],
  ])('refuses to advance %s: there is no pending POST', (_case, walkState) => {
    expect(() => advanceCreateWalk(walkState, answer(201, 'pod-1'))).toThrow(
      new RangeError('advanceCreateWalk: this state has no pending POST (the walk already ended)'),
    );
  });

  it('advances a pending post on the last candidate with no retries left', () => {
    expect(advanceCreateWalk(state(2, 1, 0, 3), answer(201, 'pod-1'))).toEqual({
      kind: 'created',
      candidateIndex: 1,
      podId: 'pod-1',
      state: state(2, 1, 0, 4),
    });
  });

  const statusArb = fc.oneof(
    fc.constantFrom(0, 200, 201, 202, 400, 402, 403, 404, 422, 429, 500, 503, 599),
    fc.integer({ min: -1, max: 700 }),
  );
  const resultArb = fc.record({ httpStatus: statusArb, podId: fc.constantFrom(null, '', ' ', 'pod-1') });

  it('never exceeds candidates + 2 calls, for any answers', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.array(resultArb, { maxLength: 12 }),
        (count, results) => {
          const { steps, calls } = replayCreateWalk(count, results);
          expect(calls).toBeLessThanOrEqual(Math.max(count, 0) + CREATE_RETRY_BUDGET);
          expect(calls).toBe(steps.length - 1);
        },
      ),
    );
  });

  it('never posts after a created or ended step, and only ever posts a listed candidate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.array(resultArb, { maxLength: 12 }),
        (count, results) => {
          const { steps } = replayCreateWalk(count, results);
          const firstFinal = steps.findIndex((step) => step.kind !== 'post');
          if (firstFinal >= 0) {
            expect(firstFinal).toBe(steps.length - 1);
            const final = steps[firstFinal];
            expect(() => advanceCreateWalk(final.state, answer(201, 'pod-x'))).toThrow(RangeError);
          } else {
            expect(steps).toHaveLength(results.length + 1);
          }
          for (const step of steps) {
            if (step.kind === 'post') {
              expect(step.candidateIndex).toBeGreaterThanOrEqual(0);
              expect(step.candidateIndex).toBeLessThan(count);
              expect(step.state.retriesLeft).toBeGreaterThanOrEqual(0);
            }
          }
        },
      ),
    );
  });
});

describe('describeCreateEnding', () => {
  // The walk runs inside each test, so a broken walk fails that test rather than the file.
  it.each<[string, number, CreateAttemptResult[], string]>([
    ['the incident', 1, [answer(400)], 'ended Exhausted after 1 of 1 candidate(s) and 0 retries'],
    ['no candidates', 0, [], 'ended Exhausted after 0 of 0 candidate(s) and 0 retries'],
    [
      'retries spent across two candidates',
      3,
      [answer(429), answer(400), answer(503), answer(500)],
      'ended RetriesExhausted after 2 of 3 candidate(s) and 2 retries',
    ],
    [
      'one retry then an abort',
      4,
      [answer(503), answer(402)],
      'ended Aborted after 1 of 4 candidate(s) and 1 retries',
    ],
    [
      'a created pod with no id',
      2,
      [answer(400), answer(202, null)],
      'ended CreatedWithoutId after 2 of 2 candidate(s) and 0 retries',
    ],
  ])('says how the walk ended: %s', (_case, count, answers, sentence) => {
    const last = replayCreateWalk(count, answers).steps.at(-1);
    expect(last?.kind).toBe('ended');
    expect(describeCreateEnding(last as CreateWalkEnded)).toBe(sentence);
  });
});
