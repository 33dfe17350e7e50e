'use strict';
// Test-only preload (`node --require test/support/skewed-clock.js`): with
// CLOCK_SKEW_MS set, this process's wall clock reads that many milliseconds
// off (Date.now(), `new Date()` and `Date()`), as on a host whose clock
// drifted. Timers and performance.now() are left alone: only the wall clock
// is wrong, as with a real skewed host. Production code never loads it.
const skewMs = Number(process.env.CLOCK_SKEW_MS ?? '0');
if (!Number.isFinite(skewMs)) throw new Error(`CLOCK_SKEW_MS is not a number: ${process.env.CLOCK_SKEW_MS}`);
if (skewMs !== 0) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  const skewedNow = () => realNow() + skewMs;
  // A subclass keeps instanceof, the static methods (parse, UTC) and the prototype.
  class SkewedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(skewedNow());
      else super(...args);
    }
    static now() {
      return skewedNow();
    }
  }
  // `Date()` called without new returns the current time as a string.
  const SkewedDateFunction = new Proxy(SkewedDate, {
    apply: () => new RealDate(skewedNow()).toString(),
  });
  globalThis.Date = SkewedDateFunction;
}
