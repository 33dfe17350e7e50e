import type { ValidationError } from 'class-validator';
import { problem, type ProblemException } from './problem';

// class-validator's name for "this property is not in the DTO" (forbidNonWhitelisted).
const UNKNOWN_PROPERTY = 'whitelistValidation';

/**
 * The ValidationPipe's errors as our 400 problem: titled after the first bad field ("Bad minutes"), its
 * detail that field's rule, every violation listed. Declared fields' rules come first: they say more than
 * "property x should not exist".
 */
export function validationProblem(errors: ValidationError[]): ProblemException {
  const violations = errors
    .map((error) => ({
      field: error.property,
      rules: Object.keys(error.constraints ?? {}),
      messages: [...new Set(Object.values(error.constraints ?? {}))],
    }))
    .sort((a, b) => Number(a.rules.includes(UNKNOWN_PROPERTY)) - Number(b.rules.includes(UNKNOWN_PROPERTY)));
  const first = violations[0] ?? { field: 'request', rules: [], messages: ['the request is not valid'] };
  return problem(400, `bad-${first.field}`, `Bad ${first.field}`, first.messages.join('; '), {
    field: first.field,
    violations: violations.map(({ field, rules }) => ({ field, rules })),
  });
}
