import fc from 'fast-check';
import { advanceIdle, afterStop, INITIAL_IDLE_STATE, type IdleSettings, type IdleState } from './idle-phase';
import { isUpSignal, type PodSignal } from './pod-signal';

const SIGNALS: readonly PodSignal[] = [
  'Busy',
  'Idle',
  'UnreachableButRunning',
  'Booting',
  'NotRunning',
  'Unknown',
];

const timeArb = fc.integer({ min: 0, max: 10 ** 13 });
const signalArb = fc.constantFrom(...SIGNALS);
const stateArb: fc.Arbitrary<IdleState> = fc.record({
  phase: fc.constantFrom('Down' as const, 'Booting' as const, 'Ready' as const),
  idleStreak: fc.nat({ max: 50 }),
  bootingTicks: fc.nat({ max: 50 }),
  upSince: fc.option(timeArb),
  bootStartedAt: fc.option(timeArb),
  readySince: fc.option(timeArb),
  lastTickAt: fc.option(timeArb),
});
// Hand-built settings too, including windows of 0 that idleSettings never produces.
const settingsArb: fc.Arbitrary<IdleSettings> = fc.record({
  requiredIdleStreak: fc.nat({ max: 20 }),
  requiredBootGraceTicks: fc.nat({ max: 20 }),
  maxRuntimeMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 10 ** 7 })),
  checkSeconds: fc.integer({ min: 1, max: 120 }),
});

describe(`${advanceIdle.name} properties`, () => {
  it('Unknown never changes any state, and stops only for a cap whose clock has run out', () => {
    fc.assert(
      fc.property(stateArb, timeArb, settingsArb, (state, now, settings) => {
        const result = advanceIdle(state, 'Unknown', now, settings);
        const capDue =
          settings.maxRuntimeMs > 0 && state.upSince !== null && now - state.upSince >= settings.maxRuntimeMs;
        expect(result.state).toBe(state);
        expect(result).toEqual({
          state,
          stop: capDue ? 'runtime-cap' : null,
          becameReady: false,
          startupAfterReady: false,
        });
      }),
    );
  });

  it('never asks for an idle stop outside Ready nor a boot-grace stop outside Booting', () => {
    fc.assert(
      fc.property(stateArb, signalArb, timeArb, settingsArb, (state, signal, now, settings) => {
        const { state: next, stop } = advanceIdle(state, signal, now, settings);
        if (stop === 'idle') expect(next.phase).toBe('Ready');
        if (stop === 'boot-grace') expect(next.phase).toBe('Booting');
      }),
    );
  });

  it('banks no idle streak outside Ready', () => {
    fc.assert(
      fc.property(stateArb, signalArb, timeArb, settingsArb, (state, signal, now, settings) => {
        fc.pre(signal !== 'Unknown');
        const { state: next } = advanceIdle(state, signal, now, settings);
        if (next.phase !== 'Ready') expect(next.idleStreak).toBe(0);
      }),
    );
  });

  it('the cap clock is armed only by a positive up observation and cleared only by down or an accepted stop', () => {
    const tickArb = fc.record({
      signal: signalArb,
      gapMs: fc.integer({ min: 1, max: 600_000 }),
      accept: fc.boolean(),
    });
    fc.assert(
      fc.property(settingsArb, fc.array(tickArb, { maxLength: 60 }), (settings, ticks) => {
        let state = INITIAL_IDLE_STATE;
        let expectedUpSince: number | null = null;
        let now = 1_000_000;
        for (const { signal, gapMs, accept } of ticks) {
          now += gapMs;
          if (signal === 'NotRunning') expectedUpSince = null;
          if (isUpSignal(signal)) expectedUpSince ??= now;
          const result = advanceIdle(state, signal, now, settings);
          expect(result.state.upSince).toBe(expectedUpSince);
          state = result.state;
          if (result.stop !== null) {
            state = afterStop(state, result.stop, accept, now);
            if (accept) expectedUpSince = null;
            expect(state.upSince).toBe(expectedUpSince);
          }
        }
      }),
    );
  });

  it('from the initial state, readySince is set exactly while Ready', () => {
    const tickArb = fc.record({ signal: signalArb, accept: fc.boolean() });
    fc.assert(
      fc.property(settingsArb, fc.array(tickArb, { maxLength: 60 }), (settings, ticks) => {
        let state = INITIAL_IDLE_STATE;
        ticks.forEach(({ signal, accept }, index) => {
          const now = 1_000_000 + index * settings.checkSeconds * 1000;
          const result = advanceIdle(state, signal, now, settings);
          state = result.stop === null ? result.state : afterStop(result.state, result.stop, accept, now);
          expect(state.readySince !== null).toBe(state.phase === 'Ready');
        });
      }),
    );
  });
});
