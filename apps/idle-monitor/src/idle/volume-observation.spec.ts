import { parseConfig, type BaselineBook, type PodActivity, type PodConfig } from '@podwarden/policies';
import { observeVolume } from './volume-observation';
import { FakeRunPod, type FakeObservation } from '@podwarden/testing';

function configuredPod(): PodConfig {
  const parsed = parseConfig({ RUNPOD_API_KEY: 'rpa_test_key', RUNPOD_VOLUME_ID: 'vol-1' }, null);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config.pods[0];
}

const POD = configuredPod();

describe('observeVolume', () => {
  it.each<[string, PodActivity, number | null, string, number | null]>([
    // what vLLM shows, the scrape, the baseline before, the signal, the baseline after
    ['the counter stood still, nothing in flight', { active: 0, completed: 5 }, 5, 'Idle', 5],
    ['the counter advanced', { active: 0, completed: 6 }, 5, 'Busy', 6],
    ['the counter went backwards (a restart)', { active: 0, completed: 1 }, 5, 'Busy', 1],
    ['a request in flight', { active: 2, completed: 5 }, 5, 'Busy', 5],
    ['the first scrape (no baseline yet)', { active: 0, completed: 0 }, null, 'Busy', 0],
    ['no counter family (an older vLLM), gauge idle', { active: 0, completed: null }, 5, 'Idle', 5],
    ['no counter family (an older vLLM), gauge busy', { active: 1, completed: null }, 5, 'Busy', 5],
  ])(
    'metrics answered, %s: the scrape decides and the control plane is not asked',
    async (_shows, metrics, before, signal, after) => {
      const client = new FakeRunPod().setPod('p1', { metrics, observation: 'Running' });
      const baselines: BaselineBook = before === null ? {} : { p1: before };

      const seen = await observeVolume(client, POD, { kind: 'found', podIds: ['p1'] }, baselines, 1);

      expect(seen.readings.map((r) => [r.podId, r.signal])).toEqual([['p1', signal]]);
      expect(client.takeCalls()).toEqual(['metrics p1']);
      expect(seen.baselineUpdates).toEqual([
        { podId: 'p1', event: { kind: 'scraped', nextBaseline: after } },
      ]);
    },
  );

  it.each<[FakeObservation, string, 'unreachable' | 'ended']>([
    // the control plane's answer, the signal, what it means for the baseline
    ['Running', 'UnreachableButRunning', 'unreachable'],
    ['Provisioning', 'Booting', 'ended'],
    ['Starting', 'Booting', 'ended'],
    ['Exited', 'NotRunning', 'ended'],
    // ERROR may still bill: not down, and left to the ERROR guard; its process did end.
    ['Error', 'Unknown', 'ended'],
    ['Terminated', 'NotRunning', 'ended'],
    ['Unknown', 'Unknown', 'unreachable'],
    ['unreadable', 'Unknown', 'unreachable'],
    ['not-found', 'Unknown', 'unreachable'],
  ])(
    'metrics down and the pod reads %s: the signal is %s and the baseline event %s (kept unless the process ended)',
    async (observation, signal, event) => {
      const client = new FakeRunPod().setPod('p1', { metrics: null, observation });

      const seen = await observeVolume(client, POD, { kind: 'found', podIds: ['p1'] }, { p1: 5 }, 1);

      expect(seen.readings.map((r) => [r.podId, r.signal])).toEqual([['p1', signal]]);
      expect(client.takeCalls()).toEqual(['metrics p1', 'observe p1']);
      expect(seen.baselineUpdates).toEqual([{ podId: 'p1', event: { kind: event } }]);
    },
  );

  it.each([
    ['not-found', { kind: 'not-found' as const }],
    ['unreadable', { kind: 'unreadable' as const, reason: 'http 503' }],
  ])('lookup %s: nothing is read and nothing reported', async (_kind, lookup) => {
    const client = new FakeRunPod().setPod('p1', { metrics: { active: 0, completed: 1 } });

    const seen = await observeVolume(client, POD, lookup, { p1: 1 }, 4);

    expect(seen).toEqual({ readings: [], baselineUpdates: [] });
    expect(client.takeCalls()).toEqual([]);
  });

  it('reads every pod on the volume in list order and scrapes each on the configured port', async () => {
    const client = new FakeRunPod()
      .setPod('old', { metrics: null, observation: 'Exited' })
      .setPod('new', { metrics: { active: 0, completed: 3 } });

    const seen = await observeVolume(client, POD, { kind: 'found', podIds: ['old', 'new'] }, { new: 3 }, 1);

    expect(seen.readings.map((r) => `${r.podId} ${r.signal}`)).toEqual(['old NotRunning', 'new Idle']);
    expect(client.takeCalls()).toEqual(['metrics old', 'observe old', 'metrics new']);
    expect(client.scrapedPorts).toEqual(['old:8000', 'new:8000']);
  });
});
