import type { IdlePhase } from './idle-phase';
import type { PodSignal } from './pod-signal';
import { withProxyActivity, type ProxyActivity } from './proxy-activity';

const LAST_TICK = 1_000_000;
const quiet: ProxyActivity = { inFlight: 0, lastEndedAt: null };
const oneInFlight: ProxyActivity = { inFlight: 1, lastEndedAt: null };
const endedBefore: ProxyActivity = { inFlight: 0, lastEndedAt: LAST_TICK - 1 };
const endedAtTick: ProxyActivity = { inFlight: 0, lastEndedAt: LAST_TICK };
const endedSince: ProxyActivity = { inFlight: 0, lastEndedAt: LAST_TICK + 1 };

describe(withProxyActivity.name, () => {
  it.each<[string, PodSignal, IdlePhase, ProxyActivity | null, PodSignal]>([
    // A Ready pod's idle evidence gives way to proxy traffic.
    ['Ready, Idle, a request in flight', 'Idle', 'Ready', oneInFlight, 'Busy'],
    [
      'Ready, metrics unreachable, a request in flight',
      'UnreachableButRunning',
      'Ready',
      oneInFlight,
      'Busy',
    ],
    ['Ready, Idle, a request ended since the last tick', 'Idle', 'Ready', endedSince, 'Busy'],
    [
      'Ready, unreachable, a request ended since the last tick',
      'UnreachableButRunning',
      'Ready',
      endedSince,
      'Busy',
    ],
    ['Ready, Idle, the proxy record unreadable', 'Idle', 'Ready', null, 'Busy'],
    // No traffic since the last tick: the scrape's reading stands.
    ['Ready, Idle, no traffic ever', 'Idle', 'Ready', quiet, 'Idle'],
    ['Ready, Idle, the last request ended before the last tick', 'Idle', 'Ready', endedBefore, 'Idle'],
    ['Ready, Idle, the last request ended exactly at the last tick', 'Idle', 'Ready', endedAtTick, 'Idle'],
    ['Ready, unreachable, no traffic', 'UnreachableButRunning', 'Ready', quiet, 'UnreachableButRunning'],
    // Traffic never makes a pod ready, revives a down pod, or turns a blind tick into evidence.
    [
      'Booting, unreachable, a request in flight',
      'UnreachableButRunning',
      'Booting',
      oneInFlight,
      'UnreachableButRunning',
    ],
    ['Booting, Booting, a request in flight', 'Booting', 'Booting', oneInFlight, 'Booting'],
    ['Down, Idle (first metrics), a request in flight', 'Idle', 'Down', oneInFlight, 'Idle'],
    ['Ready, NotRunning, a request in flight', 'NotRunning', 'Ready', oneInFlight, 'NotRunning'],
    ['Ready, Unknown, a request in flight', 'Unknown', 'Ready', oneInFlight, 'Unknown'],
    ['Ready, Booting (restart), a request in flight', 'Booting', 'Ready', oneInFlight, 'Booting'],
    ['Ready, Busy, no traffic', 'Busy', 'Ready', quiet, 'Busy'],
  ])('%s reads %s → %s', (_what, signal, phase, proxy, expected) => {
    expect(withProxyActivity(signal, phase, LAST_TICK, proxy)).toBe(expected);
  });

  it('a request that ended when no tick was recorded yet counts as since', () => {
    expect(withProxyActivity('Idle', 'Ready', null, endedBefore)).toBe('Busy');
  });
});
