import fc from 'fast-check';
import { INITIAL_IDLE_STATE, type IdleAdvance, type IdleState, type StopReason } from './idle-phase';
import { applyKeepAlive, keepAliveHolds, parseKeepAliveMinutes } from './keep-alive';

const NOW = 1_000_000;

const ready: IdleState = {
  ...INITIAL_IDLE_STATE,
  phase: 'Ready',
  idleStreak: 6,
  bootingTicks: 0,
  upSince: NOW - 60_000,
  bootStartedAt: NOW - 60_000,
  readySince: NOW - 30_000,
  lastTickAt: NOW,
};

function advanceWith(stop: StopReason | null, state: IdleState = ready): IdleAdvance {
  return { state, stop, becameReady: false, startupAfterReady: false };
}

describe(keepAliveHolds.name, () => {
  it.each([
    ['no keep-alive does not hold', null, false],
    ['a deadline in the past does not hold', NOW - 1, false],
    ['a deadline exactly now has lapsed', NOW, false],
    ['a deadline ahead holds', NOW + 1, true],
  ])('%s', (_rule, until, holds) => {
    expect(keepAliveHolds(until, NOW)).toBe(holds);
  });
});

describe(applyKeepAlive.name, () => {
  it('a holding keep-alive cancels an idle stop and restarts the streak, as a refused idle stop would', () => {
    const held = applyKeepAlive(advanceWith('idle'), NOW + 60_000, NOW);
    expect(held).toEqual(advanceWith(null, { ...ready, idleStreak: 0 }));
  });

  it.each<[string, StopReason | null, number | null]>([
    ['boot grace fires under a holding keep-alive', 'boot-grace', NOW + 60_000],
    ['the runtime cap fires under a holding keep-alive (the cost backstop)', 'runtime-cap', NOW + 60_000],
    ['an idle stop fires once the keep-alive has lapsed', 'idle', NOW],
    ['an idle stop fires without a keep-alive', 'idle', null],
    ['a tick that asks for no stop is untouched', null, NOW + 60_000],
  ])('%s', (_rule, stop, until) => {
    const advance = advanceWith(stop);
    expect(applyKeepAlive(advance, until, NOW)).toBe(advance);
  });
});

describe(`${applyKeepAlive.name} properties`, () => {
  const timeArb = fc.integer({ min: 0, max: 10 ** 13 });
  const stateArb: fc.Arbitrary<IdleState> = fc.record({
    phase: fc.constantFrom('Down' as const, 'Booting' as const, 'Ready' as const),
    idleStreak: fc.nat({ max: 50 }),
    bootingTicks: fc.nat({ max: 50 }),
    upSince: fc.option(timeArb),
    bootStartedAt: fc.option(timeArb),
    readySince: fc.option(timeArb),
    lastTickAt: fc.option(timeArb),
  });
  const advanceArb: fc.Arbitrary<IdleAdvance> = fc.record({
    state: stateArb,
    stop: fc.constantFrom<StopReason | null>('idle', 'boot-grace', 'runtime-cap', null),
    becameReady: fc.boolean(),
    startupAfterReady: fc.boolean(),
  });

  it('never suppresses a boot-grace or runtime-cap stop', () => {
    fc.assert(
      fc.property(advanceArb, fc.option(timeArb), timeArb, (advance, until, now) => {
        fc.pre(advance.stop === 'boot-grace' || advance.stop === 'runtime-cap');
        expect(applyKeepAlive(advance, until, now)).toBe(advance);
      }),
    );
  });

  it('never changes anything when the keep-alive does not hold', () => {
    fc.assert(
      fc.property(advanceArb, fc.option(timeArb), timeArb, (advance, until, now) => {
        fc.pre(!keepAliveHolds(until, now));
        expect(applyKeepAlive(advance, until, now)).toBe(advance);
      }),
    );
  });

  it('when it holds, only the stop and the idle streak change', () => {
    fc.assert(
      fc.property(advanceArb, timeArb, timeArb, (advance, now, ahead) => {
        const result = applyKeepAlive(advance, now + ahead + 1, now);
        expect(result.stop).toBe(advance.stop === 'idle' ? null : advance.stop);
        expect({ ...result.state, idleStreak: 0 }).toEqual({ ...advance.state, idleStreak: 0 });
        expect(result.becameReady).toBe(advance.becameReady);
        expect(result.startupAfterReady).toBe(advance.startupAfterReady);
      }),
    );
  });
});

describe(parseKeepAliveMinutes.name, () => {
  it.each<[string, unknown, number]>([
    ['a whole number', 30, 30],
    ['a decimal', 0.5, 0.5],
    ['exactly a day', 1440, 1440],
  ])('accepts %s', (_rule, value, minutes) => {
    expect(parseKeepAliveMinutes(value)).toEqual({ ok: true, minutes });
  });

  it.each<[string, unknown]>([
    ['zero', 0],
    ['a negative number', -5],
    ['more than a day', 1440.5],
    ['a numeric string', '30'],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['null', null],
    ['a missing value', undefined],
    ['a boolean', true],
    ['an object', { minutes: 5 }],
  ])('refuses %s, naming the rule', (_rule, value) => {
    expect(parseKeepAliveMinutes(value)).toEqual({
      ok: false,
      reason: 'minutes must be a number greater than 0 and at most 1440',
    });
  });
});
