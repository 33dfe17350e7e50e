import { INITIAL_IDLE_STATE, type PodRhythm } from '@podwarden/policies';
import { IdleStateStore, RhythmStore, type RhythmSnapshot } from '@podwarden/platform';
import { startGateway, type GatewayHarness } from '../testing/gateway-harness';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Learned: a 2-minute window and one weekday pre-wake at 08:56 UTC, shown by the monitor's last tick. */
function learned(now: number): RhythmSnapshot {
  const rhythm: PodRhythm = {
    window: { minutes: 2, policy: 'adaptive', basis: 'learned from 143 idle gaps over 9 days' },
    prewakes: [
      { dayClass: 'weekday', wakeMinute: 536, untilMinute: 542, hitRate: 0.9, gainUsd: 0.2 },
      { dayClass: 'weekend', wakeMinute: 536, untilMinute: 542, hitRate: 0.9, gainUsd: 0.2 },
    ],
    bootMinutes: 3,
  };
  return { learnedAt: now, uses: 500, rhythm, inForce: rhythm.window, nextPrewakeAt: null };
}

describe('GET /api/pods/{name}: idleWindow and nextPrewakeAt (IDLE_POLICY=adaptive)', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('idle-window', { env: { IDLE_POLICY: 'adaptive', IDLE_MINUTES: '15' } });
  });
  afterAll(() => gw.close());

  it("before the monitor learned anything: the pod's fixed window, labelled, and no pre-wake", async () => {
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect(answer.body.idleWindow).toEqual({
      minutes: 15,
      policy: 'adaptive',
      basis: "fixed window of 15 min until the idle monitor has learned this pod's rhythm",
    });
    expect(answer.body.nextPrewakeAt).toBeNull();
  });

  it('the window the monitor applies, the next pre-wake after now, and idleStopAt on that window', async () => {
    const now = Date.now();
    await gw.app.get(RhythmStore).saveSnapshot('qwen', learned(now));
    const readySince = now - 30 * MINUTE;
    await gw.app.get(IdleStateStore).save('qwen', {
      state: {
        ...INITIAL_IDLE_STATE,
        phase: 'Ready',
        readySince,
        upSince: readySince,
        lastTickAt: now,
        idleStreak: 1,
      },
      baselines: {},
      updatedAt: now,
      lastTickId: 't',
    });
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect(answer.body.idleWindow).toEqual({
      minutes: 2,
      policy: 'adaptive',
      basis: 'learned from 143 idle gaps over 9 days',
    });
    const next = Date.parse(String(answer.body.nextPrewakeAt));
    expect(new Date(next).toISOString().slice(11)).toBe('08:56:00.000Z');
    expect(next).toBeGreaterThan(now);
    expect(next - now).toBeLessThanOrEqual(DAY);
    // One idle minute seen of two: the stop is due a minute after the last tick.
    expect(answer.body.idleStopAt).toBe(new Date(now + MINUTE).toISOString());
  });
});
