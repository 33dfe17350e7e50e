import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DEFAULT_HISTORY_LIMIT, HISTORY_LIMIT_RULE, HistoryQueryDto } from './history-query.dto';

function check(query: Record<string, unknown>): { limit: unknown; errors: string[] } {
  const dto = plainToInstance(HistoryQueryDto, query);
  const errors = validateSync(dto).flatMap((error) => Object.values(error.constraints ?? {}));
  return { limit: dto.limit, errors };
}

describe(HistoryQueryDto.name, () => {
  it.each([
    ['absent is the default', {}, DEFAULT_HISTORY_LIMIT],
    ['1 is the least', { limit: '1' }, 1],
    ['200 is the most', { limit: '200' }, 200],
    ['a value in range', { limit: '50' }, 50],
  ])('accepts: %s', (_rule, query, limit) => {
    expect(check(query)).toEqual({ limit, errors: [] });
  });

  it.each([
    ['zero', '0'],
    ['above the maximum', '201'],
    ['negative', '-1'],
    ['a decimal', '1.5'],
    ['words', 'ten'],
    ['empty', ''],
    ['an exponent', '1e2'],
    ['repeated parameters', ['5', '6']],
  ])('refuses with the rule: %s', (_rule, limit) => {
    const { errors } = check({ limit });
    expect(errors.length).toBeGreaterThan(0);
    expect(new Set(errors)).toEqual(new Set([HISTORY_LIMIT_RULE]));
  });
});
