import { IsOptional } from 'class-validator';
import { WholeNumberQuery } from '../http/whole-number-query.decorator';

/** The longest USAGE_RETENTION_DAYS a query may name; the record itself never holds more than its retention. */
export const MAX_USAGE_DAYS = 366;
export const USAGE_DAYS_RULE = `days must be a whole number from 1 to ${MAX_USAGE_DAYS}`;

/** ?days=N: absent means all the record keeps; anything but a whole number in range is refused (400). */
export class UsageQueryDto {
  @IsOptional()
  @WholeNumberQuery(MAX_USAGE_DAYS, USAGE_DAYS_RULE, {
    description: 'days of usage back from now (default: all that is kept, USAGE_RETENTION_DAYS)',
  })
  readonly days?: number;
}
