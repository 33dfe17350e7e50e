import { LEVEL, captureLogs, testConfig } from '@podwarden/testing';
import { settleRun } from './budget-settlement';

const POD = testConfig().pods[0];
const UP_SINCE = Date.parse('2026-12-01T10:00:00Z');
const NOW = Date.parse('2026-12-01T11:30:00Z');

/** A ledger that answers what the spec scripts and records what it was asked. */
function ledgerAnswering(answer: () => Promise<number | null>) {
  const calls: unknown[][] = [];
  return {
    calls,
    settle: (...args: [string, number | null, number]) => {
      calls.push(args);
      return answer();
    },
  };
}

describe('settleRun', () => {
  it('settles the pod from the cap clock start to now and logs the amount in USD, to the cent', async () => {
    const logs = captureLogs();
    const ledger = ledgerAnswering(() => Promise.resolve(1_236_000));
    await settleRun(ledger, logs.logger, POD, UP_SINCE, NOW);
    expect(ledger.calls).toEqual([[POD.name, UP_SINCE, NOW]]);
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.info,
        pod: POD.name,
        settledUsd: 1.236,
        msg: `run of ${POD.name} settled at 1.24 USD (estimate)`,
      }),
    ]);
  });

  it('passes an unknown start through (the ledger charges its worst case)', async () => {
    const logs = captureLogs();
    const ledger = ledgerAnswering(() => Promise.resolve(0));
    await settleRun(ledger, logs.logger, POD, null, NOW);
    expect(ledger.calls).toEqual([[POD.name, null, NOW]]);
    // Zero is a settlement too (a run that cost nothing), not "nothing to settle".
    expect(logs.messages('info')).toEqual([`run of ${POD.name} settled at 0.00 USD (estimate)`]);
  });

  it('logs nothing when there was no open run to settle (idempotent: already settled)', async () => {
    const logs = captureLogs();
    await settleRun(
      ledgerAnswering(() => Promise.resolve(null)),
      logs.logger,
      POD,
      UP_SINCE,
      NOW,
    );
    expect(logs.lines).toEqual([]);
  });

  it('a failing ledger is one Warning naming the pod and the cause, and never throws', async () => {
    const logs = captureLogs();
    const ledger = ledgerAnswering(() => Promise.reject(new Error('READONLY replica')));
    await expect(settleRun(ledger, logs.logger, POD, UP_SINCE, NOW)).resolves.toBeUndefined();
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.warn,
        pod: POD.name,
        err: 'READONLY replica',
        msg: 'budget settlement failed; the reservation stays',
      }),
    ]);
  });
});
