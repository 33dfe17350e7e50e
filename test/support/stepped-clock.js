'use strict';
// Test-only preload (`node --require test/support/stepped-clock.js`): each
// SIGUSR2 the process receives steps its wall clock forward by CLOCK_STEP_MS
// (Date.now(), `new Date()` and `Date()`), as an NTP step on a real host
// would. Timers and performance.now() are left alone. A spec uses it to
// bring a process's clock to just before a boundary it would otherwise wait
// out (a minute of tick slack), then waits for the event past it. Production
// code never loads it.
const stepMs = Number(process.env.CLOCK_STEP_MS ?? '0');
if (!Number.isFinite(stepMs) || stepMs <= 0) {
  throw new Error(`CLOCK_STEP_MS must be a positive number: ${process.env.CLOCK_STEP_MS}`);
}
const RealDate = Date;
const realNow = RealDate.now.bind(RealDate);
let offsetMs = 0;
const steppedNow = () => realNow() + offsetMs;
// A subclass keeps instanceof, the static methods (parse, UTC) and the prototype.
class SteppedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(steppedNow());
    else super(...args);
  }
  static now() {
    return steppedNow();
  }
}
// `Date()` called without new returns the current time as a string.
globalThis.Date = new Proxy(SteppedDate, {
  apply: () => new RealDate(steppedNow()).toString(),
});
process.on('SIGUSR2', () => {
  offsetMs += stepMs;
});
