import { evidenceWeight } from './evidence-weight';
import { EVIDENCE_HALF_LIFE_DAYS } from './rhythm-constants';

const DAY = 24 * 60 * 60_000;

describe('evidenceWeight', () => {
  it.each([
    { age: 0, weight: 1 },
    { age: EVIDENCE_HALF_LIFE_DAYS * DAY, weight: 0.5 },
    { age: 2 * EVIDENCE_HALF_LIFE_DAYS * DAY, weight: 0.25 },
    // Evidence from the future (a writer's clock ahead) weighs as fresh, never more.
    { age: -DAY, weight: 1 },
  ])('age $age ms → $weight', ({ age, weight }) => {
    expect(evidenceWeight(1_000_000_000_000 - age, 1_000_000_000_000)).toBeCloseTo(weight, 10);
  });
});
