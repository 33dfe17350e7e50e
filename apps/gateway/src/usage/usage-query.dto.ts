import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** The longest USAGE_RETENTION_DAYS a query may name; the record itself never holds more than its retention. */
export const MAX_USAGE_DAYS = 366;
export const USAGE_DAYS_RULE = `days must be a whole number from 1 to ${MAX_USAGE_DAYS}`;

/** ?days=N: absent means all the record keeps; anything but a whole number in range is refused (400). */
export class UsageQueryDto {
  @ApiProperty({
    required: false,
    type: 'integer',
    minimum: 1,
    maximum: MAX_USAGE_DAYS,
    description: 'days of usage back from now (default: all that is kept, USAGE_RETENTION_DAYS)',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : value,
  )
  @IsInt({ message: USAGE_DAYS_RULE })
  @Min(1, { message: USAGE_DAYS_RULE })
  @Max(MAX_USAGE_DAYS, { message: USAGE_DAYS_RULE })
  readonly days?: number;
}
