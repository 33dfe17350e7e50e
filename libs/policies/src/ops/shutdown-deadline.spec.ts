import { parseConfig } from '../config/parse-config';
import type { PodwardenConfig } from '../config/config-types';
import { SHUTDOWN_MARGIN_MS, shutdownDeadlineMs, type ShutdownRole } from './shutdown-deadline';

function configWith(env: Record<string, string>): PodwardenConfig {
  const result = parseConfig(env, null);
  if (!result.ok) throw new Error(result.error);
  return result.config;
}

describe(shutdownDeadlineMs.name, () => {
  it.each<[string, Record<string, string>, ShutdownRole, number]>([
    ['a worker: the grace plus the margin', {}, 'worker', 10_000 + SHUTDOWN_MARGIN_MS],
    [
      'a worker ignores the start wait (it serves no start request)',
      { WAKE_REQUEST_WAIT_SECONDS: '60' },
      'worker',
      10_000 + SHUTDOWN_MARGIN_MS,
    ],
    [
      'the gateway by default: the 25 s start wait outlasts the 10 s grace',
      {},
      'gateway',
      25_000 + SHUTDOWN_MARGIN_MS,
    ],
    [
      'the gateway with a grace longer than the start wait keeps the grace',
      { SHUTDOWN_GRACE_MS: '40000', WAKE_REQUEST_WAIT_SECONDS: '25' },
      'gateway',
      40_000 + SHUTDOWN_MARGIN_MS,
    ],
    [
      'the gateway with a short start wait keeps the grace',
      { SHUTDOWN_GRACE_MS: '10000', WAKE_REQUEST_WAIT_SECONDS: '3' },
      'gateway',
      10_000 + SHUTDOWN_MARGIN_MS,
    ],
  ])('%s', (_why, env, role, expected) => {
    expect(shutdownDeadlineMs(configWith(env), role)).toBe(expected);
  });

  it('leaves a start request that waits the whole WAKE_REQUEST_WAIT_SECONDS time to answer', () => {
    const config = configWith({ WAKE_REQUEST_WAIT_SECONDS: '25', SHUTDOWN_GRACE_MS: '10000' });
    expect(shutdownDeadlineMs(config, 'gateway')).toBeGreaterThan(config.wake.requestWaitSeconds * 1000);
  });
});
