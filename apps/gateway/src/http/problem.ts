import { HttpException } from '@nestjs/common';

/** RFC 9457 problem details, plus whatever fields a route adds (outcome, attemptId, …). */
export interface ProblemBody {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly [extra: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const PROBLEM_TYPE_BASE = 'urn:podwarden:problem:';

/** An error a route raises on purpose; the exception filter renders its body as is. */
export class ProblemException extends HttpException {
  constructor(readonly problem: ProblemBody) {
    super(problem, problem.status);
  }
}

export function problem(
  status: number,
  slug: string,
  title: string,
  detail: string,
  extra: Record<string, unknown> = {},
): ProblemException {
  return new ProblemException({ type: `${PROBLEM_TYPE_BASE}${slug}`, title, status, detail, ...extra });
}
