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

/**
 * An error a route raises on purpose; the exception filter renders its body
 * as is, with `Retry-After` when the caller should simply try again.
 */
export class ProblemException extends HttpException {
  constructor(
    readonly problem: ProblemBody,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(problem, problem.status);
  }
}

/** The one way a problem body is made: its type is the slug under the project's URN. */
export function problemBody(
  status: number,
  slug: string,
  title: string,
  detail: string,
  extra: Record<string, unknown> = {},
): ProblemBody {
  return { type: `${PROBLEM_TYPE_BASE}${slug}`, title, status, detail, ...extra };
}

export function problem(
  status: number,
  slug: string,
  title: string,
  detail: string,
  extra: Record<string, unknown> = {},
): ProblemException {
  return new ProblemException(problemBody(status, slug, title, detail, extra));
}

/** orWarn's fallback for a Redis read or write a route cannot answer without: a 503 naming the pod. */
export function storeUnavailable(podName: string, slug: string, title: string, detail: string): () => never {
  return () => {
    throw problem(503, slug, title, detail, { name: podName });
  };
}
