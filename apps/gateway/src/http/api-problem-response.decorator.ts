import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE } from './problem';
import { ProblemDto } from './problem.dto';

/** Documents one error answer of a route: an application/problem+json body with this status. */
export function ApiProblemResponse(status: number, description: string): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemDto),
    ApiResponse({
      status,
      description,
      content: {
        [PROBLEM_CONTENT_TYPE]: {
          // Extra fields are part of the problem format, so the schema admits them.
          schema: { allOf: [{ $ref: getSchemaPath(ProblemDto) }], additionalProperties: true },
        },
      },
    }),
  );
}
