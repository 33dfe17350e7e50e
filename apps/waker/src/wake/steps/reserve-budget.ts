import {
  judgedFigures,
  judgedRefusal,
  reservationMicros,
  toMicros,
  worstCaseMinutes,
} from '@podwarden/policies';
import { errorMessage, withinTimeout } from '@podwarden/platform';
import type { WakeResult } from '../wake-result';
import type { WakeRunContext } from '../wake-run-context';

/**
 * The daily budget's gate before a start or create: reserve in the shared ledger the worst case this wake
 * can bill before the runtime cap (or the day's end) stops it. Ends the wake when over budget or, with a
 * budget set, on an unreadable ledger; without a budget it still reserves (GET's spendToday).
 */
export async function reserveBudget(ctx: WakeRunContext, pricePerHour: number): Promise<WakeResult | null> {
  const { ledger } = ctx;
  const now = ctx.now().getTime();
  const minutes = worstCaseMinutes(ctx.pod.maxRuntimeMinutes, now);
  const micros = reservationMicros(pricePerHour, minutes);
  const budget = ctx.config.dailyBudgetUsd;
  const budgetMicros = budget === null ? null : toMicros(budget);
  const fields = { pod: ctx.pod.name, pricePerHour, minutes, reserveUsd: micros / 1e6, budgetUsd: budget };
  // The wake's ending, announced on the pod's event stream with the figures (amounts only).
  const refuse = async (
    reason: string,
    spentUsd: number | null,
    reservedUsd: number | null,
    providerUsd: number | null = null,
  ) => {
    await ctx.announce('budget-refused', {
      detail: reason,
      spentUsd,
      reservedUsd,
      providerUsd,
      wakeUsd: micros / 1e6,
      budgetUsd: budget,
      pricePerHour,
      minutes,
    });
    return ctx.state.declined(reason);
  };
  try {
    const outcome = await withinTimeout(
      ledger.reserve(ctx.pod.name, { micros, pricePerHour, at: now, attemptId: ctx.attemptId }, budgetMicros),
      ctx.config.tuning.redisWriteTimeoutMs,
      'budget reservation',
    );
    if (outcome.kind === 'reserved' || budgetMicros === null) {
      ctx.log.info(fields, `reserved ${(micros / 1e6).toFixed(2)} USD of the daily budget`);
      return null;
    }
    const measures = {
      settledMicros: outcome.spentMicros,
      accruingMicros: outcome.accruingMicros,
      providerMicros: outcome.providerMicros,
    };
    const reason = judgedRefusal(
      measures,
      outcome.reservedMicros,
      budgetMicros,
      micros,
      pricePerHour,
      minutes,
    );
    const judged = judgedFigures(measures, outcome.reservedMicros, budgetMicros);
    ctx.log.warn({ ...fields, ...judged, providerMicros: outcome.providerMicros }, reason);
    const providerUsd = outcome.providerMicros === null ? null : outcome.providerMicros / 1e6;
    return await refuse(reason, judged.spentMicros / 1e6, judged.reservedMicros / 1e6, providerUsd);
  } catch (error) {
    if (budgetMicros === null) {
      ctx.log.warn({ ...fields, err: errorMessage(error) }, 'budget ledger not written (no budget set)');
      return null;
    }
    const reason = `daily budget ledger unreadable (${errorMessage(error)}); nothing was started or created`;
    ctx.log.warn({ ...fields, err: errorMessage(error) }, reason);
    // Fail closed, and say so: the figures are unknown.
    return await refuse(reason, null, null);
  }
}
