import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { problem } from './problem';

/** Deeper than any body a route takes; the validator recurses and must not meet a 10,000-deep array. */
export const MAX_BODY_DEPTH = 16;
/** Keys that address an object's prototype rather than a field; no DTO has them. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Before the ValidationPipe: a body nested past MAX_BODY_DEPTH or carrying a prototype key is a 400
 * problem before anything recursive touches it. The walk is iterative, so no input exhausts the stack.
 */
@Injectable()
export class JsonBodyPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body') {
      return value;
    }
    const broken = firstBrokenRule(value);
    if (broken !== null) {
      throw problem(400, 'bad-body', 'Bad body', broken.detail, {
        field: 'body',
        violations: [{ field: 'body', rules: [broken.rule] }],
      });
    }
    return value;
  }
}

function firstBrokenRule(body: unknown): { rule: string; detail: string } | null {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: body, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof value !== 'object' || value === null) {
      continue;
    }
    if (depth >= MAX_BODY_DEPTH) {
      return { rule: 'maxDepth', detail: `the body is nested deeper than ${MAX_BODY_DEPTH} levels` };
    }
    for (const key of Object.keys(value)) {
      if (PROTOTYPE_KEYS.has(key)) {
        return { rule: 'prototypeKey', detail: `the body has a "${key}" key, which no request takes` };
      }
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1 });
    }
  }
  return null;
}
