import { WholeNumberQuery } from '../http/whole-number-query.decorator';

export const DEFAULT_HISTORY_LIMIT = 20;
export const MAX_HISTORY_LIMIT = 200;
export const HISTORY_LIMIT_RULE = `limit must be a whole number from 1 to ${MAX_HISTORY_LIMIT}`;

/**
 * ?limit=N: absent means 20; anything but a whole number in 1..200 is refused
 * (400), never clamped silently. Only plain digits become a number, so "1e2",
 * "2.5", "" or a repeated parameter stay as sent and fail the rule.
 */
export class HistoryQueryDto {
  @WholeNumberQuery(MAX_HISTORY_LIMIT, HISTORY_LIMIT_RULE, {
    default: DEFAULT_HISTORY_LIMIT,
    description: 'entries per list',
  })
  readonly limit: number = DEFAULT_HISTORY_LIMIT;
}
