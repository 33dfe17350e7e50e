import { execFileSync } from 'node:child_process';
import { SKEWED_CLOCK_PRELOAD } from './clock-skew';

/** What a child node process reads from its clocks, with the preload and CLOCK_SKEW_MS as given. */
function clocksOfChild(skew: string | null): Record<string, number | string | boolean> {
  const script = `
    const t0 = performance.now();
    setTimeout(() => {
      console.log(JSON.stringify({
        now: Date.now(), newDate: new Date().getTime(), dateString: Date(),
        fixed: new Date(5).getTime(), parsed: Date.parse('2026-01-01T00:00:00Z'),
        utc: Date.UTC(2026, 0, 1), isDate: new Date() instanceof Date,
        timerWaited: performance.now() - t0,
      }));
    }, 50);`;
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH };
  if (skew !== null) env.CLOCK_SKEW_MS = skew;
  const out = execFileSync(process.execPath, ['--require', SKEWED_CLOCK_PRELOAD, '-e', script], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out) as Record<string, number | string | boolean>;
}

describe('skewed-clock preload', () => {
  it('without CLOCK_SKEW_MS the clock is the real one', () => {
    const before = Date.now();
    const seen = clocksOfChild(null);
    expect(seen.now).toBeGreaterThanOrEqual(before);
    expect(seen.now).toBeLessThan(Date.now() + 1);
  });

  it.each([-180_000, 240_000])(
    'CLOCK_SKEW_MS=%i moves Date.now(), new Date() and Date(), nothing else',
    (skew) => {
      const before = Date.now();
      const seen = clocksOfChild(String(skew));
      const after = Date.now();
      for (const read of [seen.now as number, seen.newDate as number]) {
        expect(read).toBeGreaterThanOrEqual(before + skew);
        expect(read).toBeLessThanOrEqual(after + skew);
      }
      // Date() has second resolution.
      const asString = Date.parse(seen.dateString as string);
      expect(asString).toBeGreaterThanOrEqual(Math.floor((before + skew) / 1000) * 1000);
      expect(asString).toBeLessThanOrEqual(after + skew);
      expect(seen).toMatchObject({
        fixed: 5,
        parsed: Date.UTC(2026, 0, 1),
        utc: Date.UTC(2026, 0, 1),
        isDate: true,
      });
      // Timers and the monotonic clock run as usual: a 50 ms timer is not shifted by the skew.
      expect(seen.timerWaited).toBeGreaterThanOrEqual(45);
      expect(seen.timerWaited).toBeLessThan(30_000);
    },
  );

  it('a CLOCK_SKEW_MS that is not a number refuses to start', () => {
    expect(() => clocksOfChild('soon')).toThrow(/CLOCK_SKEW_MS is not a number/);
  });
});
