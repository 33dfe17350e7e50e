import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { ApiProblemResponse } from '../http/api-problem-response.decorator';
import type { AcceptedTokens } from './operator-gate';
import { ACCEPTED_TOKENS, OperatorTokenGuard } from './operator-token.guard';

/** The OpenAPI security scheme of the X-Rig-Operator-Token header. */
export const OPERATOR_TOKEN_SECURITY = 'operator-token';

const GATE_CLOSED = 'the gate is on but RIG_OPERATOR_TOKEN is not set';

/**
 * Puts a route behind the operator gate once: guard and accepted tokens (`operator-or-wake` also admits
 * RIG_WAKE_TOKEN), security scheme and 401/503 in OpenAPI; `unavailable` names other reasons for a 503.
 */
export function Operator(accepts: AcceptedTokens = 'operator', unavailable?: string): MethodDecorator {
  return applyDecorators(
    SetMetadata(ACCEPTED_TOKENS, accepts),
    UseGuards(OperatorTokenGuard),
    ApiSecurity(OPERATOR_TOKEN_SECURITY),
    ApiProblemResponse(401, 'missing or wrong token'),
    ApiProblemResponse(503, unavailable === undefined ? GATE_CLOSED : `${GATE_CLOSED}, or ${unavailable}`),
  );
}
