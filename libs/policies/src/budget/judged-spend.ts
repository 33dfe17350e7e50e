import { budgetRefusal, fromMicros, type BudgetFigures } from './daily-budget';

/**
 * The daily budget is judged on the larger of our ledger (settled + open runs so far) and RunPod's billing,
 * so a leak the ledger never saw still stops new wakes; what open runs may still bill comes on top. The
 * ledger's Lua script mirrors this arithmetic.
 */
export interface SpendMeasures {
  /** Settled today by the ledger. */
  readonly settledMicros: number;
  /** Open runs at price × time so far (part of their reservations). */
  readonly accruingMicros: number;
  /** RunPod's billing today for the pods we attribute; null when never read. */
  readonly providerMicros: number | null;
}

export function judgedSpentMicros(measures: SpendMeasures): number {
  const ledger = measures.settledMicros + measures.accruingMicros;
  return measures.providerMicros === null ? ledger : Math.max(ledger, measures.providerMicros);
}

/** Which measure the budget was judged on. */
export function judgedBy(measures: SpendMeasures): 'ledger' | 'provider' {
  const ledger = measures.settledMicros + measures.accruingMicros;
  return measures.providerMicros !== null && measures.providerMicros > ledger ? 'provider' : 'ledger';
}

/**
 * The figures a refusal names. Judged on the ledger they are the ledger's own (settled, and every
 * open reservation whole: the same sum); judged on RunPod's bill, the open runs count only their
 * remainder on top of it.
 */
export function judgedFigures(
  measures: SpendMeasures,
  reservedMicros: number,
  budgetMicros: number,
): BudgetFigures {
  if (judgedBy(measures) === 'ledger') {
    return { spentMicros: measures.settledMicros, reservedMicros, budgetMicros };
  }
  return {
    spentMicros: judgedSpentMicros(measures),
    reservedMicros: Math.max(0, reservedMicros - measures.accruingMicros),
    budgetMicros,
  };
}

/** The refusal's reason; when RunPod's bill was the larger number, it says so and names the ledger's too. */
export function judgedRefusal(
  measures: SpendMeasures,
  reservedMicros: number,
  budgetMicros: number,
  amountMicros: number,
  pricePerHour: number,
  minutes: number,
): string {
  const reason = budgetRefusal(
    judgedFigures(measures, reservedMicros, budgetMicros),
    amountMicros,
    pricePerHour,
    minutes,
  );
  if (judgedBy(measures) === 'ledger') return reason;
  const ledger = fromMicros(measures.settledMicros + measures.accruingMicros).toFixed(2);
  return reason.replace(
    /^daily budget exceeded: spent ([\d.]+ USD)/,
    `daily budget exceeded: spent $1 (RunPod's billing today, above our ledger's ${ledger} USD)`,
  );
}
