import {
  judgedBy,
  judgedFigures,
  judgedRefusal,
  judgedSpentMicros,
  type SpendMeasures,
} from './judged-spend';

describe('the daily budget judged on the larger of ledger and provider spend', () => {
  it.each<[string, SpendMeasures, number, 'ledger' | 'provider']>([
    [
      'no provider figure: the ledger',
      { settledMicros: 100, accruingMicros: 50, providerMicros: null },
      150,
      'ledger',
    ],
    ['the ledger is larger', { settledMicros: 100, accruingMicros: 50, providerMicros: 120 }, 150, 'ledger'],
    [
      'RunPod billed more: the provider',
      { settledMicros: 100, accruingMicros: 50, providerMicros: 900 },
      900,
      'provider',
    ],
    ['a tie is the ledger', { settledMicros: 100, accruingMicros: 0, providerMicros: 100 }, 100, 'ledger'],
  ])('%s', (_rule, measures, spent, by) => {
    expect(judgedSpentMicros(measures)).toBe(spent);
    expect(judgedBy(measures)).toBe(by);
  });

  it('open runs count only what they may still bill on top of the judged spend', () => {
    expect(
      judgedFigures({ settledMicros: 0, accruingMicros: 300, providerMicros: 2_000 }, 1_000, 5_000),
    ).toEqual({ spentMicros: 2_000, reservedMicros: 700, budgetMicros: 5_000 });
  });

  it("without provider spend the sum is the ledger's old one (settled + reserved)", () => {
    expect(
      judgedFigures({ settledMicros: 400, accruingMicros: 300, providerMicros: null }, 1_000, 5_000),
    ).toEqual({
      spentMicros: 400,
      reservedMicros: 1_000,
      budgetMicros: 5_000,
    });
  });

  it('a refusal judged on the provider says so and names the ledger', () => {
    const reason = judgedRefusal(
      { settledMicros: 0, accruingMicros: 0, providerMicros: 5_000_000 },
      0,
      1_000_000,
      490_000,
      0.49,
      60,
    );
    expect(reason).toBe(
      "daily budget exceeded: spent 5.00 USD (RunPod's billing today, above our ledger's 0.00 USD) + reserved 0.00 USD " +
        "+ this wake's 0.49 USD (0.49 USD/h × 60 min) would exceed DAILY_BUDGET_USD 1.00 USD; nothing was started or created",
    );
  });

  it("names the ledger's settled and accruing spend together, and only the open runs' remainder", () => {
    const reason = judgedRefusal(
      { settledMicros: 1_000_000, accruingMicros: 500_000, providerMicros: 5_000_000 },
      800_000,
      1_000_000,
      490_000,
      0.49,
      60,
    );
    expect(reason).toBe(
      "daily budget exceeded: spent 5.00 USD (RunPod's billing today, above our ledger's 1.50 USD) + reserved 0.30 USD " +
        "+ this wake's 0.49 USD (0.49 USD/h × 60 min) would exceed DAILY_BUDGET_USD 1.00 USD; nothing was started or created",
    );
  });

  it('open runs that accrued more than they reserved add nothing, never a negative amount', () => {
    expect(
      judgedFigures({ settledMicros: 0, accruingMicros: 1_500, providerMicros: 2_000 }, 1_000, 5_000),
    ).toEqual({ spentMicros: 2_000, reservedMicros: 0, budgetMicros: 5_000 });
  });

  it('a refusal judged on the ledger reads as before', () => {
    const reason = judgedRefusal(
      { settledMicros: 2_000_000, accruingMicros: 0, providerMicros: 0 },
      0,
      1_000_000,
      1,
      1,
      1,
    );
    expect(reason).toMatch(/^daily budget exceeded: spent 2\.00 USD \+ reserved/);
  });
});
