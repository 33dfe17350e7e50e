import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

/**
 * A query parameter that must be a whole number from 1 to `max`, refused (400) with `rule` otherwise,
 * never clamped. Only plain digits become a number, so "1e2", "2.5", "" or a repeated parameter fail.
 */
export function WholeNumberQuery(
  max: number,
  rule: string,
  doc: { readonly description: string; readonly default?: number },
): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ required: false, type: 'integer', minimum: 1, maximum: max, ...doc }),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : value,
    ),
    IsInt({ message: rule }),
    Min(1, { message: rule }),
    Max(max, { message: rule }),
  );
}
