import { Stack, VOLUME_ID } from '../support/stack';
import { resetSim, simWrites } from '../support/sim-admin';
import { writePodsConfig } from '../idle/support/idle-harness';
import type { SseClient } from '../support/sse-client';

/**
 * The daily budget is a reservation made atomically in the ledger every
 * replica shares, before any start or create. Two pods on two volumes, two
 * waker replicas, both woken at once: each create would reserve the
 * eligible card's 0.49 USD/h × the 60-minute cap = 0.49 USD, and the budget
 * (0.75 USD) holds only one. Exactly one create reaches RunPod; the other
 * wake is refused with 409, lastWake Refused, the reason naming spent,
 * reserved and budget, and a budget-refused event on that pod's stream.
 */
jest.setTimeout(180_000);

const SECOND_VOLUME = 'vol-budget-two';

interface LastWake {
  readonly outcome: string;
  readonly reason: string | null;
}

interface SpendToday {
  readonly estimate: boolean;
  readonly basis: string;
  readonly spentUsd: number;
  readonly reservedUsd: number;
  readonly budgetUsd: number | null;
}

describe('the daily budget', () => {
  let stack: Stack;
  const streams: SseClient[] = [];

  beforeAll(async () => {
    const podsConfig = writePodsConfig([
      { name: 'qwen', volumeId: VOLUME_ID },
      { name: 'second', volumeId: SECOND_VOLUME },
    ]);
    stack = await Stack.start({
      name: 'guard-budget',
      wakers: 2,
      env: { PODS_CONFIG: podsConfig, DAILY_BUDGET_USD: '0.75', MAX_RUNTIME_MINUTES: '60' },
    });
  });

  afterAll(async () => {
    await Promise.all(streams.map((s) => s.close()));
    await stack?.stop();
  });

  it('two wakes on two volumes through two wakers racing for the last dollars never exceed it', async () => {
    await resetSim(stack, {
      volumes: [
        { id: VOLUME_ID, dataCenterId: 'EU-RO-1' },
        { id: SECOND_VOLUME, dataCenterId: 'EU-RO-1' },
      ],
    });
    streams.push(
      ...(await Promise.all(['qwen', 'second'].map((name) => stack.eventStream(`/api/pods/${name}/events`)))),
    );
    const [first, second] = await Promise.all(
      ['qwen', 'second'].map((name) =>
        stack.api<{ outcome: string; detail?: string; attemptId?: string }>(
          'POST',
          `/api/pods/${name}/start`,
          {
            token: 'operator',
          },
        ),
      ),
    );

    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    const creates = (await simWrites(stack)).filter((w) => w === 'POST /pods');
    expect(creates).toHaveLength(1);

    const refusedName = first.status === 409 ? 'qwen' : 'second';
    const refused = first.status === 409 ? first : second;
    expect(refused.body.outcome).toBe('Failed');
    const status = await stack.api<{ lastWake: LastWake; spendToday: SpendToday }>(
      'GET',
      `/api/pods/${refusedName}`,
    );
    expect(status.body.lastWake.outcome).toBe('Refused');
    expect(status.body.lastWake.reason).toMatch(
      /^daily budget exceeded: spent 0\.00 USD \+ reserved 0\.49 USD \+ this wake's 0\.49 USD .* would exceed DAILY_BUDGET_USD 0\.75 USD/,
    );
    expect(status.body.spendToday).toMatchObject({
      estimate: true,
      spentUsd: 0,
      reservedUsd: 0.49,
      budgetUsd: 0.75,
    });
    expect(status.body.spendToday.basis).toContain('not RunPod');

    // The refused pod's event stream says so, with the figures; the other pod's says nothing of it.
    const [refusedStream, woken] = first.status === 409 ? streams : [streams[1], streams[0]];
    const event = await refusedStream.waitFor('budget-refused', (e) => e.event === 'budget-refused');
    expect(refusedStream.data(event)).toEqual({
      pod: refusedName,
      at: expect.any(String),
      attemptId: String(refused.body.attemptId),
      detail: status.body.lastWake.reason,
      spentUsd: 0,
      reservedUsd: 0.49,
      providerUsd: null,
      wakeUsd: 0.49,
      budgetUsd: 0.75,
      pricePerHour: 0.49,
      minutes: 60,
    });
    await refusedStream.waitFor('wake-completed', (e) => e.event === 'wake-completed');
    await woken.waitFor('the other wake completed', (e) => e.event === 'wake-completed');
    expect(woken.events.filter((e) => e.event === 'budget-refused')).toEqual([]);
  });
});
