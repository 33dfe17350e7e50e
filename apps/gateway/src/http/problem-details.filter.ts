import {
  Catch,
  HttpException,
  HttpStatus,
  ServiceUnavailableException,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { Response } from 'express';
import { errorMessage, type AppLogger } from '@podwarden/platform';
import type { PodRequest } from '../pods/pod-request';
import { PROBLEM_CONTENT_TYPE, ProblemException, type ProblemBody } from './problem';

/**
 * Every error leaves as application/problem+json, but a failed health check keeps terminus's body.
 * Nest's own HttpExceptions are reshaped; anything unexpected is a bare 500, its details in the log.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  constructor(private readonly logger: AppLogger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    const health = failedHealthCheck(exception);
    if (health !== null) {
      response.status(HttpStatus.SERVICE_UNAVAILABLE).json(health);
      return;
    }
    const body = aboutThePod(this.toProblem(exception), host.switchToHttp().getRequest<PodRequest>());
    if (exception instanceof ProblemException && exception.retryAfterSeconds !== null) {
      response.setHeader('Retry-After', String(exception.retryAfterSeconds));
    }
    response.status(body.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
  }

  private toProblem(exception: unknown): ProblemBody {
    if (exception instanceof ProblemException) return exception.problem;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      return { type: 'about:blank', title: titleOf(status), status, detail: detailOf(exception) };
    }
    const status = clientErrorStatus(exception);
    if (status !== null) {
      // body-parser and friends throw plain errors carrying a 4xx status.
      return { type: 'about:blank', title: titleOf(status), status, detail: titleOf(status) };
    }
    this.logger.error(
      { err: errorMessage(exception), stack: stackOf(exception) },
      'unexpected error while serving a request',
    );
    return {
      type: 'about:blank',
      title: 'Internal Server Error',
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      detail: 'unexpected error; see the gateway log',
    };
  }
}

/**
 * Terminus reports a failed check as a 503 whose body says which indicator is
 * down; that body is the health route's documented answer, so it is kept.
 */
function failedHealthCheck(exception: unknown): object | null {
  if (!(exception instanceof ServiceUnavailableException)) return null;
  const body = exception.getResponse();
  return typeof body === 'object' && 'details' in body && 'status' in body ? body : null;
}

/** A problem raised on a known pod's route names that pod, whoever raised it (the validation pipe does not know it). */
function aboutThePod(body: ProblemBody, request: PodRequest): ProblemBody {
  return request.pod === undefined || 'name' in body ? body : { ...body, name: request.pod.name };
}

function titleOf(status: number): string {
  const name = HttpStatus[status];
  if (typeof name !== 'string') return `HTTP ${status}`;
  return name
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

function detailOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  return exception.message;
}

function clientErrorStatus(exception: unknown): number | null {
  if (typeof exception !== 'object' || exception === null) return null;
  const record = exception as { status?: unknown; statusCode?: unknown };
  const status = typeof record.status === 'number' ? record.status : record.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}

function stackOf(exception: unknown): string | undefined {
  return exception instanceof Error ? exception.stack : undefined;
}
