import { CliError } from '../output/cli-error';
import { judgeAnswer, requireOk } from './answer-verdict';
import { httpAnswer, networkFailure } from './gateway-answer';

function problem(status: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'urn:podwarden:problem:x', title: 'T', status, detail: 'why', ...extra };
}

describe(judgeAnswer.name, () => {
  it.each([
    ['a JSON 200', httpAnswer(200, { a: 1 }), 'ok'],
    ['a JSON 202', httpAnswer(202, { outcome: 'Waiting' }), 'ok'],
    ['a network error', networkFailure('ECONNREFUSED'), 'transient'],
    ['a 200 that is not JSON (a proxy page)', httpAnswer(200, undefined, 'text/html'), 'transient'],
    ['a 500 problem', httpAnswer(500, problem(500)), 'transient'],
    ['a 502 page from a proxy', httpAnswer(502, undefined, 'text/html'), 'transient'],
    [
      'a 503 queue unavailable',
      httpAnswer(503, problem(503, { type: 'urn:podwarden:problem:queue-unavailable' })),
      'transient',
    ],
    [
      'a 503 lookup unreadable',
      httpAnswer(503, problem(503, { type: 'urn:podwarden:problem:lookup-unreadable' })),
      'transient',
    ],
    ['a 404 page that is not the gateway', httpAnswer(404, undefined, 'text/html'), 'transient'],
  ])('%s is %s', (_what, answer, kind) => {
    expect(judgeAnswer(answer).kind).toBe(kind);
  });

  it.each([
    ['401', httpAnswer(401, problem(401)), 'unauthorized'],
    ['403 from a proxy, not JSON', httpAnswer(403, undefined, 'text/html'), 'unauthorized'],
    ['400', httpAnswer(400, problem(400)), 'bad_request'],
    ['404 unknown pod', httpAnswer(404, problem(404)), 'not_found'],
    [
      '409 Failed by the provider',
      httpAnswer(409, problem(409, { outcome: 'Failed', failureKind: 'provider' })),
      'failed',
    ],
    ['409 Failed without a kind', httpAnswer(409, problem(409, { outcome: 'Failed' })), 'failed'],
    [
      '409 refused by a guard',
      httpAnswer(409, problem(409, { outcome: 'Failed', failureKind: 'refused' })),
      'refused',
    ],
    [
      '503 unconfigured',
      httpAnswer(503, problem(503, { type: 'urn:podwarden:problem:unconfigured' })),
      'refused',
    ],
    [
      '503 gate without a token',
      httpAnswer(503, problem(503, { type: 'urn:podwarden:problem:operator-gate-unconfigured' })),
      'refused',
    ],
    ['418 problem', httpAnswer(418, problem(418)), 'failed'],
  ])('%s is final %s', (_what, answer, code) => {
    const verdict = judgeAnswer(answer);
    expect(verdict).toMatchObject({ kind: 'final', error: { code } });
  });

  it('a final error carries the ids and the detail of the problem as data', () => {
    const verdict = judgeAnswer(
      httpAnswer(
        409,
        problem(409, { outcome: 'Failed', failureKind: 'provider', attemptId: 'a1', name: 'qwen' }),
      ),
    );
    expect(verdict.kind === 'final' && verdict.error.document()).toMatchObject({
      code: 'failed',
      httpStatus: 409,
      attemptId: 'a1',
      name: 'qwen',
      detail: 'why',
      failureKind: 'provider',
    });
  });
});

describe(requireOk.name, () => {
  it('returns the body of a usable answer', () => {
    expect(requireOk(httpAnswer(200, { a: 1 }))).toEqual({ status: 200, body: { a: 1 } });
  });

  it('ends a one-shot command with unreachable on a transient failure', () => {
    expect(() => requireOk(networkFailure('ECONNREFUSED'))).toThrow(
      expect.objectContaining({ code: 'unreachable', message: expect.stringContaining('ECONNREFUSED') }),
    );
  });

  it('throws the final error as it is', () => {
    expect(() => requireOk(httpAnswer(401, problem(401)))).toThrow(CliError);
  });
});
