import type { PodConfig } from '@podwarden/policies';
import { errorMessage, type AppLogger, type BudgetLedger } from '@podwarden/platform';

/**
 * Ends a run in the daily-budget ledger once the volume is seen down or a stop was accepted: it costs price
 * × observed uptime. Idempotent; on a failure the reservation stays at its worst case, which only errs on
 * the side of refusing.
 */
export async function settleRun(
  ledger: Pick<BudgetLedger, 'settle'>,
  logger: AppLogger,
  pod: PodConfig,
  upSince: number | null,
  now: number,
): Promise<void> {
  try {
    const micros = await ledger.settle(pod.name, upSince, now);
    if (micros !== null) {
      logger.info(
        { pod: pod.name, settledUsd: micros / 1e6 },
        `run of ${pod.name} settled at ${(micros / 1e6).toFixed(2)} USD (estimate)`,
      );
    }
  } catch (error) {
    logger.warn(
      { pod: pod.name, err: errorMessage(error) },
      'budget settlement failed; the reservation stays',
    );
  }
}
