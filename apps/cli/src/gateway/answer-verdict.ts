import { CliError, type ErrorCode } from '../output/cli-error';
import type { GatewayAnswer } from './gateway-answer';

/**
 * What an answer means to the CLI: a body to use, a transient failure (the
 * gateway or something in front of it did not answer usefully; trying again
 * may help, and a wait carries on), or a final error.
 */
export type AnswerVerdict =
  | { readonly kind: 'ok'; readonly status: number; readonly body: unknown }
  | { readonly kind: 'transient'; readonly reason: string; readonly httpStatus: number | null }
  | { readonly kind: 'final'; readonly error: CliError };

// 503s that will not heal by retrying: the gateway declines writes until it is reconfigured.
const PERMANENT_REFUSALS = new Set([
  'urn:podwarden:problem:unconfigured',
  'urn:podwarden:problem:operator-gate-unconfigured',
]);

interface ProblemFields {
  readonly type: string | null;
  readonly detail: string | null;
  readonly fields: Record<string, unknown>;
}

function problemOf(body: unknown): ProblemFields | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const record = body as Record<string, unknown>;
  if (typeof record.status !== 'number' || typeof record.title !== 'string') return null;
  return {
    type: typeof record.type === 'string' ? record.type : null,
    detail: typeof record.detail === 'string' ? record.detail : null,
    fields: record,
  };
}

function final(
  code: ErrorCode,
  message: string,
  status: number,
  problem: ProblemFields | null,
): AnswerVerdict {
  const data: Record<string, unknown> = { httpStatus: status };
  if (problem !== null) {
    for (const key of ['attemptId', 'podId', 'outcome', 'failureKind', 'name'] as const) {
      if (key in problem.fields) data[key] = problem.fields[key];
    }
    if (problem.detail !== null) data.detail = problem.detail;
  }
  return { kind: 'final', error: new CliError(code, message, data) };
}

function transient(reason: string, httpStatus: number | null): AnswerVerdict {
  return { kind: 'transient', reason, httpStatus };
}

/** Fail closed: only a JSON 2xx is a usable answer, and only a definite answer ends anything. */
export function judgeAnswer(answer: GatewayAnswer): AnswerVerdict {
  if (answer.kind === 'network') return transient(`the gateway did not answer: ${answer.reason}`, null);
  const { status, body } = answer;
  const problem = problemOf(body);
  const detail = problem?.detail ?? `HTTP ${status}`;
  if (status >= 200 && status < 300) {
    return body === undefined
      ? transient(
          `the gateway answered ${status} without JSON (${answer.contentType || 'no content type'})`,
          status,
        )
      : { kind: 'ok', status, body };
  }
  if (status === 401 || status === 403) {
    return final('unauthorized', `the gateway refused the token (${status}): ${detail}`, status, problem);
  }
  if (status >= 500) {
    if (problem?.type != null && PERMANENT_REFUSALS.has(problem.type)) {
      return final(
        'refused',
        `the gateway refuses this until it is reconfigured: ${detail}`,
        status,
        problem,
      );
    }
    return transient(`the gateway answered ${status}: ${detail}`, status);
  }
  if (problem === null) {
    // Not the gateway's problem JSON: a wrong URL or a page from something in front of it.
    return transient(
      `the answer was ${status} ${answer.contentType || 'without a content type'}, not the gateway's JSON; is PODWARDEN_URL the gateway?`,
      status,
    );
  }
  if (status === 400 || status === 422)
    return final('bad_request', `the gateway refused the request: ${detail}`, status, problem);
  if (status === 404) return final('not_found', detail, status, problem);
  if (status === 409 && problem.fields.failureKind === 'refused') {
    return final('refused', `the wake was refused, nothing was billed: ${detail}`, status, problem);
  }
  const what = problem.fields.outcome === 'Failed' ? 'the wake failed' : `the gateway answered ${status}`;
  return final('failed', `${what}: ${detail}`, status, problem);
}

/** The body of a usable answer, or the error a one-shot command ends with (a transient failure is `unreachable`). */
export function requireOk(answer: GatewayAnswer): { readonly status: number; readonly body: unknown } {
  const verdict = judgeAnswer(answer);
  switch (verdict.kind) {
    case 'ok':
      return { status: verdict.status, body: verdict.body };
    case 'transient':
      return unreachable(verdict);
    case 'final':
      throw verdict.error;
  }
}

function unreachable(verdict: { readonly reason: string; readonly httpStatus: number | null }): never {
  throw new CliError('unreachable', verdict.reason, { httpStatus: verdict.httpStatus });
}
