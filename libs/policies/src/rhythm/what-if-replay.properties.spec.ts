import fc from 'fast-check';
import type { UsageTrace } from './usage-trace';
import { replayTrace, type ReplaySettings } from './what-if-replay';

const T0 = Date.parse('2026-11-02T00:00:00Z');

const settingsArb = fc.record({
  idleMinutes: fc.integer({ min: 1, max: 30 }),
  checkSeconds: fc.constantFrom(15, 30, 60, 120),
  minMinutes: fc.constantFrom(1, 2, 3),
  prewake: fc.boolean(),
});

// Clustered arrivals (bursts and silences), so the adaptive policy learns something to act on.
const traceArb = fc
  .record({
    bootMinutes: fc.double({ min: 0.5, max: 10, noNaN: true }),
    gaps: fc.array(
      fc.oneof(fc.double({ min: 0, max: 0.5, noNaN: true }), fc.double({ min: 0.5, max: 240, noNaN: true })),
      { minLength: 1, maxLength: 150 },
    ),
    seconds: fc.array(fc.double({ min: 0, max: 900, noNaN: true }), { minLength: 1, maxLength: 150 }),
  })
  .map(({ bootMinutes, gaps, seconds }): UsageTrace => {
    let at = T0;
    const requests = gaps.map((gap, i) => {
      at += gap * 60_000;
      return { at: new Date(Math.round(at)).toISOString(), seconds: seconds[i % seconds.length] };
    });
    return { bootMinutes, pricePerHour: 0.79, requests };
  });

describe('replayTrace properties', () => {
  it('no policy ever stops a pod during use (runtime cap off)', () => {
    fc.assert(
      fc.property(traceArb, settingsArb, (trace, s) => {
        const settings: ReplaySettings = {
          ...s,
          maxMinutes: Math.max(s.idleMinutes, s.minMinutes),
          prewakeMaxPerDay: 4,
          retentionDays: 28,
          bootGraceMinutes: 20 + trace.bootMinutes,
          maxRuntimeMinutes: 0,
        };
        for (const policy of ['fixed', 'adaptive'] as const) {
          const result = replayTrace(trace, policy, settings);
          if (result.stopsDuringUse !== 0) return false;
          if (result.coldStarts < 1 || result.coldStarts > trace.requests.length) return false;
        }
        return true;
      }),
      { numRuns: 150 },
    );
  });
});
