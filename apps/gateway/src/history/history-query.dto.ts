import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

export const DEFAULT_HISTORY_LIMIT = 20;
export const MAX_HISTORY_LIMIT = 200;
export const HISTORY_LIMIT_RULE = `limit must be a whole number from 1 to ${MAX_HISTORY_LIMIT}`;

/**
 * ?limit=N: absent means 20; anything but a whole number in 1..200 is refused
 * (400), never clamped silently. Only plain digits become a number, so "1e2",
 * "2.5", "" or a repeated parameter stay as sent and fail the rule.
 */
export class HistoryQueryDto {
  @ApiProperty({
    required: false,
    type: 'integer',
    minimum: 1,
    maximum: MAX_HISTORY_LIMIT,
    default: DEFAULT_HISTORY_LIMIT,
    description: 'entries per list',
  })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : value,
  )
  @IsInt({ message: HISTORY_LIMIT_RULE })
  @Min(1, { message: HISTORY_LIMIT_RULE })
  @Max(MAX_HISTORY_LIMIT, { message: HISTORY_LIMIT_RULE })
  readonly limit: number = DEFAULT_HISTORY_LIMIT;
}
