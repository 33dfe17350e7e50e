import type { StopReason } from '@podwarden/policies';
import type { BootCheck, BootDiagnoser } from './boot-diagnoser';

/**
 * The stop a tick carries out: the phase machine's, unless a diagnosed restart
 * loop asks for one now (rather than after the whole boot grace). The runtime
 * cap still wins; without a diagnoser nothing changes.
 */
/** What the tick needs of the diagnoser. */
export type EarlyStops = Pick<BootDiagnoser, 'check'>;

export async function withEarlyStop(
  boots: EarlyStops,
  stopDue: StopReason | null,
  check: Omit<BootCheck, 'stopDue'>,
): Promise<StopReason | null> {
  const early = await boots.check({ ...check, stopDue });
  return stopDue === 'runtime-cap' ? stopDue : (early ?? stopDue);
}
