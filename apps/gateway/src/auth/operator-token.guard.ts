import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { PodwardenConfig } from '@podwarden/policies';
import { CONFIG, LOGGER, type AppLogger } from '@podwarden/platform';
import { problem } from '../http/problem';
import { judgeOperatorToken, type AcceptedTokens } from './operator-gate';

export const OPERATOR_TOKEN_HEADER = 'x-rig-operator-token';
export const ACCEPTED_TOKENS = 'podwarden:accepted-tokens';

/**
 * Guards run before interceptors, pipes and handlers, so a missing or wrong
 * token is 401 before the pod name is even looked at: an unauthenticated
 * caller learns nothing. Put on a route with @Operator().
 */
@Injectable()
export class OperatorTokenGuard implements CanActivate {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const accepts = this.reflector.get<AcceptedTokens>(ACCEPTED_TOKENS, context.getHandler()) ?? 'operator';
    const request = context.switchToHttp().getRequest<Request>();
    const verdict = judgeOperatorToken(this.config, request.header(OPERATOR_TOKEN_HEADER), accepts);
    switch (verdict.kind) {
      case 'open':
      case 'allowed':
        return true;
      case 'no-operator-token':
        throw problem(
          503,
          'operator-gate-unconfigured',
          'Operator gate has no token',
          'OPERATOR_GATE is on but RIG_OPERATOR_TOKEN is not set, so write routes are closed',
        );
      case 'rejected':
        // Who was refused where, never what they presented.
        this.logger.info(
          { method: request.method, path: request.path },
          'operator gate refused a request: missing or wrong token',
        );
        throw problem(401, 'unauthorized', 'Unauthorized', 'missing or wrong X-Rig-Operator-Token');
    }
  }
}
