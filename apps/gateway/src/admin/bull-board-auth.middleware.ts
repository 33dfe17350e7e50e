import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppLogger } from '@podwarden/platform';
import { PROBLEM_CONTENT_TYPE, problemBody, type ProblemBody } from '../http/problem';
import { judgeOperatorToken, type GateSettings } from '../auth/operator-gate';
import { OPERATOR_TOKEN_HEADER } from '../auth/operator-token.guard';
import { presentedToken } from './presented-token';

const REALM = 'Basic realm="podwarden"';

function send(response: Response, body: ProblemBody): void {
  response.status(body.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}

/**
 * Bull Board is plain express middleware, outside Nest's guards, and it can
 * retry, promote and delete wake jobs: it sits behind the same operator token.
 */
export function bullBoardAuth(settings: GateSettings, logger: AppLogger): RequestHandler {
  return (request: Request, response: Response, next: NextFunction): void => {
    const token = presentedToken(request.header(OPERATOR_TOKEN_HEADER), request.header('authorization'));
    const verdict = judgeOperatorToken(settings, token, 'operator');
    switch (verdict.kind) {
      case 'open':
      case 'allowed':
        next();
        return;
      case 'no-operator-token':
        send(
          response,
          problemBody(
            503,
            'operator-gate-unconfigured',
            'Operator gate has no token',
            'OPERATOR_GATE is on but RIG_OPERATOR_TOKEN is not set, so the queue board is closed',
          ),
        );
        return;
      case 'rejected':
        logger.info(
          { method: request.method, path: request.originalUrl.split('?')[0] },
          'queue board refused a request: missing or wrong token',
        );
        response.setHeader('WWW-Authenticate', REALM);
        send(
          response,
          problemBody(
            401,
            'unauthorized',
            'Unauthorized',
            'the queue board needs the operator token (X-Rig-Operator-Token, or basic auth with it as password)',
          ),
        );
        return;
    }
  };
}
