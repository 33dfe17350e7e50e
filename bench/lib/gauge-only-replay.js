'use strict';
// money-day's baseline, a gauge-only idle policy, replayed on the run's own
// observation trace (see the comment on replayGaugeOnly).

function gauge(text, name) {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      sum += Number(line.trim().split(/\s+/).pop()) || 0;
  }
  return sum;
}

/**
 * The gauge-only rule on this run's trace. A tick reads the gauges: 0 in
 * flight counts one idle tick, anything else (or a booting model) resets the
 * count; IDLE_MINUTES idle ticks stop the pod. Where its pod would be down
 * when the script sends a request, that request wakes it again: billing
 * resumes at the request, which waits one boot (this run's first boot). A
 * scripted wake wakes it too. Where the real pod was down (podwarden stopped
 * it) but the baseline's is up, nothing reached it: idle. After a re-wake the
 * replay keeps the trace as observed (the later requests are not shifted by
 * the boot the baseline's user waited): an approximation in its favour.
 */
function replayGaugeOnly(day, bootMin, phase, { phases, idleMinutes }) {
  const ticks = day.samples.filter((sample) => sample.index % phases === phase);
  const events = [
    ...day.wakes.map((w) => ({ at: w.at, request: false })),
    ...day.requests.map((r) => ({ at: r.from, request: true })),
  ].sort((a, b) => a.at - b.at);
  let up = false;
  let upSince = 0;
  let bootedAt = 0;
  let streak = 0;
  let billed = 0;
  let coldRequests = 0;
  const stops = [];
  let next = 0;
  for (const sample of ticks) {
    for (; next < events.length && events[next].at <= sample.at; next++) {
      if (up) continue;
      up = true;
      upSince = events[next].at;
      bootedAt = upSince + bootMin;
      streak = 0;
      if (events[next].request) coldRequests++;
    }
    if (!up) continue;
    const idle = sample.at >= bootedAt && (sample.serving ? sample.inFlight === 0 : true);
    streak = idle ? streak + 1 : 0;
    if (streak >= idleMinutes) {
      billed += sample.at - upSince;
      up = false;
      stops.push(sample.at);
    }
  }
  if (up) billed += ticks.at(-1).at - upSince;
  return {
    billed,
    wakes: day.wakes.length + coldRequests,
    coldRequests,
    stops,
    boots: day.wakes.length + coldRequests,
  };
}

module.exports = { gauge, replayGaugeOnly };
