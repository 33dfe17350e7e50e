import type { BootUnderWay, ReadySample } from '../status/ready-estimate';
import { MAX_RETRY_AFTER_SECONDS } from './cold-request';
import { shedBoot, shedEstimate, type ShedAttempt, type ShedEstimate } from './shed-estimate';

const T0 = Date.UTC(2026, 11, 1, 6, 0, 0);
const NOW = T0 + 5_000;

function attempt(attemptId: string, wakeOutcome: string | null, gpuId: string | null = null): ShedAttempt {
  return { attemptId, requestedAt: T0, wakeOutcome, gpuId };
}

describe(shedBoot.name, () => {
  it.each<[string, ShedAttempt[], BootUnderWay | null]>([
    ['no history: queued, its boot starts now', [], { startedAt: NOW, gpuId: null }],
    [
      'not in the history yet: queued, on the GPU of the newest wake',
      [attempt('other', 'Created', 'L4')],
      { startedAt: NOW, gpuId: 'L4' },
    ],
    ['in flight, no earlier wake: no GPU', [attempt('w', null)], { startedAt: T0, gpuId: null }],
    [
      'in flight: the GPU of the newest wake that named one',
      [
        attempt('w', null),
        attempt('b', 'Failed'),
        attempt('a', 'Created', 'L4'),
        attempt('z', 'Created', 'A40'),
      ],
      { startedAt: T0, gpuId: 'L4' },
    ],
    [
      'in flight, its own GPU already named: still the GPU of the newest ended wake',
      [attempt('w', null, 'H100'), attempt('a', 'Created', 'L4')],
      { startedAt: T0, gpuId: 'L4' },
    ],
    ['created, model loading', [attempt('w', 'Created', 'A40')], { startedAt: T0, gpuId: 'A40' }],
    ['started, model loading', [attempt('w', 'Started')], { startedAt: T0, gpuId: null }],
    ['already running: no boot of ours to time', [attempt('w', 'AlreadyRunning', 'L4')], null],
    ['failed: nothing booting', [attempt('w', 'Failed')], null],
  ])('%s', (_what, attempts, expected) => {
    expect(shedBoot(attempts, 'w', NOW)).toEqual(expected);
  });
});

describe(shedEstimate.name, () => {
  const sample = (readyAfterMs: number): ReadySample => ({ attemptId: 's', gpuId: null, readyAfterMs });
  const boot: BootUnderWay = { startedAt: T0, gpuId: null };
  it.each<[string, BootUnderWay | null, ReadySample[], number, ShedEstimate]>([
    ['no boot: the fallback', null, [sample(60_000)], T0, { expectedReadyAt: null, retryAfterSeconds: 30 }],
    ['no history: the fallback', boot, [], T0, { expectedReadyAt: null, retryAfterSeconds: 30 }],
    [
      'the median ahead, rounded up',
      boot,
      [sample(40_000), sample(90_000), sample(300_000)],
      T0 + 500,
      { expectedReadyAt: T0 + 90_000, retryAfterSeconds: 90 },
    ],
    [
      'an estimate already past: 1 s',
      boot,
      [sample(60_000)],
      T0 + 75_000,
      { expectedReadyAt: T0 + 60_000, retryAfterSeconds: 1 },
    ],
    [
      'an estimate far out: capped',
      boot,
      [sample(2 * 60 * 60 * 1000)],
      T0,
      { expectedReadyAt: T0 + 7_200_000, retryAfterSeconds: MAX_RETRY_AFTER_SECONDS },
    ],
  ])('%s', (_what, b, samples, now, expected) => {
    expect(shedEstimate(b, samples, now, 30)).toEqual(expected);
  });
});
