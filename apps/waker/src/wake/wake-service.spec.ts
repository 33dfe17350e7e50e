import fc from 'fast-check';
import type { PodObservation, PodStatus } from '@podwarden/policies';
import type { ActionRecord } from '@podwarden/platform';
import { utcStamp, WakeRun } from './wake-service';
import { FakeControlPlane } from './testing/fake-control-plane';
import { FIXED_NOW } from './testing/fixed-clock';
import {
  A100,
  A6000,
  INCIDENT_CATALOG,
  INCIDENT_EXCLUSIONS,
  L40S,
  PRICES,
  RANKED_CATALOG,
} from './testing/gpu-catalogs';
import {
  OUR_VOLUME,
  actionAccepted,
  actionRefused,
  createRefused,
  created,
  emptyVolume,
  found,
  notFound,
  unreadableList,
  unreadablePod,
  volumeWith,
} from '@podwarden/testing';
import {
  TEST_API_KEY,
  TEST_MAX_POLLS,
  TEST_MAX_RETRY_AFTER_SECONDS,
  TEST_POD_NAME,
  TEST_POLL_INTERVAL_MS,
} from './testing/test-config';
import { wakeRunHarness } from './testing/wake-run-harness';

/** `n` copies of the same calls, for "observed every round until the poll budget ran out". */
function rounds(n: number, ...calls: string[]): string[] {
  return Array.from({ length: n }, () => calls).flat();
}

/** One billable-action entry as the wake must write it (trigger wake, our pod name, the fixed clock). */
function wakeAction(entry: Omit<ActionRecord, 'at' | 'podName' | 'trigger'>): ActionRecord {
  return { at: FIXED_NOW, podName: TEST_POD_NAME, trigger: 'wake', ...entry };
}

const POLL_GAPS = Array.from({ length: TEST_MAX_POLLS - 1 }, () => TEST_POLL_INTERVAL_MS);

describe(WakeRun.name, () => {
  describe('guards before any RunPod call', () => {
    it.each([
      ['the API key is missing', new FakeControlPlane().unconfigured(), {}],
      ['the volume id is blank', new FakeControlPlane(), { volumeId: '  ' }],
    ])('refuses when %s, with zero RunPod calls and zero writes', async (_why, runpod, pod) => {
      const sut = wakeRunHarness(runpod, { pod });

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused', podId: null });
      expect(result.message).toMatch(/not configured/);
      expect(runpod.calls).toEqual([]);
      expect(sut.actions.entries).toEqual([]);
    });

    it('refuses on an unreadable volume list with exactly one list call and no write (a failed list is never "no pod")', async () => {
      const runpod = new FakeControlPlane().onList(unreadableList('http 502'));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused' });
      expect(result.message).toMatch(/unreadable \(http 502\)/);
      expect(runpod.calls).toEqual(['list']);
      expect(sut.actions.entries).toEqual([]);
    });
  });

  describe('no pod on the volume', () => {
    it('reads the catalog, creates on the cheapest eligible GPU, polls it to Running and answers Created with its GPU and price', async () => {
      const runpod = new FakeControlPlane()
        .onList(emptyVolume())
        .onCatalog(RANKED_CATALOG)
        .onCreate(created('new1'))
        .onObserve(
          'new1',
          found('new1', 'Provisioning'),
          found('new1', 'Starting'),
          found('new1', 'Running'),
        );
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual([
        'list',
        'catalog',
        `create ${L40S}`,
        'observe new1',
        'observe new1',
        'observe new1',
      ]);
      expect(result).toEqual({
        outcome: 'Created',
        failureKind: null,
        podId: 'new1',
        gpuId: L40S,
        pricePerHour: PRICES[L40S],
        message: expect.stringContaining('new1'),
        candidatesConsidered: 3,
        lastProviderStatus: 201,
      });
      expect(sut.actions.entries).toEqual([
        wakeAction({
          action: 'Create',
          podId: 'new1',
          gpuId: L40S,
          pricePerHour: PRICES[L40S],
          httpStatus: 201,
          ok: true,
          detail: null,
        }),
      ]);
      expect(sut.sleeper.delays).toEqual([TEST_POLL_INTERVAL_MS, TEST_POLL_INTERVAL_MS]);
    });

    it('posts our template, datacenter, volume and a prefixed, timestamped name', async () => {
      const runpod = new FakeControlPlane()
        .onList(emptyVolume())
        .onCatalog(RANKED_CATALOG)
        .onCreate(created('new1'))
        .onObserve('new1', found('new1', 'Running'));
      const sut = wakeRunHarness(runpod);

      await sut.run();

      expect(runpod.createRequests).toEqual([
        {
          name: 'podwarden-qwen-20261130T101500Z',
          templateId: 'tmpl-qwen',
          dataCenterId: 'EU-RO-1',
          gpuId: L40S,
          volumeId: OUR_VOLUME,
        },
      ]);
    });
  });

  describe('existing pods on the volume', () => {
    it('a Running pod with a GPU is AlreadyRunning, with no write', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Running', 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result).toMatchObject({
        outcome: 'AlreadyRunning',
        failureKind: null,
        podId: 'p1',
        gpuId: null,
        pricePerHour: null,
      });
      expect(runpod.calls).toEqual(['list', 'observe p1']);
      expect(sut.actions.entries).toEqual([]);
    });

    it.each<PodStatus>(['Exited', 'Error'])(
      'a %s pod is started once, polled through Starting to Running, and answers Started with one Start recorded',
      async (status) => {
        const runpod = new FakeControlPlane()
          .onList(volumeWith(['p1']))
          .onObserve('p1', found('p1', status), found('p1', 'Starting'), found('p1', 'Running'))
          .onStart(actionAccepted());
        const sut = wakeRunHarness(runpod);

        const result = await sut.run();

        expect(runpod.calls).toEqual(['list', 'observe p1', 'start p1', 'observe p1', 'observe p1']);
        expect(result).toMatchObject({ outcome: 'Started', podId: 'p1', failureKind: null });
        expect(sut.actions.entries).toEqual([
          wakeAction({
            action: 'Start',
            podId: 'p1',
            gpuId: null,
            pricePerHour: null,
            httpStatus: 200,
            ok: true,
            detail: null,
          }),
        ]);
      },
    );

    it('an Exited pod after a start that did not take is replaced, and terminated only after the replacement is Running', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Exited'), found('p1', 'Exited'))
        .onStart(actionAccepted())
        .onCatalog(RANKED_CATALOG)
        .onCreate(created('new1'))
        .onObserve('new1', found('new1', 'Starting'), found('new1', 'Running'))
        .onTerminate(actionAccepted(204));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual([
        'list',
        'observe p1',
        'start p1',
        'observe p1',
        'catalog',
        `create ${L40S}`,
        'observe new1',
        'observe new1',
        'terminate p1',
      ]);
      // The second 'observe new1' is the one that saw Running.
      expect(runpod.calls.indexOf('terminate p1')).toBeGreaterThan(runpod.calls.lastIndexOf('observe new1'));
      expect(result).toMatchObject({
        outcome: 'Created',
        podId: 'new1',
        gpuId: L40S,
        pricePerHour: PRICES[L40S],
      });
      expect(sut.actions.summary).toEqual(['Start p1 ok', 'Create new1 ok', 'Terminate p1 ok']);
    });

    it('a start RunPod refused is recorded ok:false and still counts as the one start: the next Exited read replaces the pod', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Exited'), found('p1', 'Exited'))
        .onStart(actionRefused(500, 'no capacity on the host'))
        .onCatalog(RANKED_CATALOG)
        .onCreate(created('new1'))
        .onObserve('new1', found('new1', 'Running'))
        .onTerminate(actionAccepted());
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.billableCalls).toEqual(['start p1', `create ${L40S}`, 'terminate p1']);
      expect(result.outcome).toBe('Created');
      expect(sut.actions.entries[0]).toEqual(
        wakeAction({
          action: 'Start',
          podId: 'p1',
          gpuId: null,
          pricePerHour: null,
          httpStatus: 500,
          ok: false,
          detail: 'no capacity on the host',
        }),
      );
    });

    it('a stale Exited pod listed FIRST next to a Running replacement: AlreadyRunning, no start, the stale pod terminated', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['stale', 'fresh']))
        .onObserve('stale', found('stale', 'Exited'))
        .onObserve('fresh', found('fresh', 'Running', 1))
        .onTerminate(actionAccepted(204));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual(['list', 'observe stale', 'observe fresh', 'terminate stale']);
      expect(result).toMatchObject({ outcome: 'AlreadyRunning', podId: 'fresh' });
      expect(sut.actions.summary).toEqual(['Terminate stale ok']);
    });

    it('two Running pods: the first listed serves and its sibling is terminated as stale', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['a', 'b']))
        .onObserve('a', found('a', 'Running', 1))
        .onObserve('b', found('b', 'Running', 1))
        .onTerminate(actionAccepted());
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'AlreadyRunning', podId: 'a' });
      expect(runpod.calls).toEqual(['list', 'observe a', 'observe b', 'terminate b']);
    });

    it('a sibling already Terminated next to a Running pod is not terminated again', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['gone', 'p2']))
        .onObserve('gone', found('gone', 'Terminated'))
        .onObserve('p2', found('p2', 'Running', 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'AlreadyRunning', podId: 'p2' });
      expect(runpod.calls).toEqual(['list', 'observe gone', 'observe p2']);
      expect(sut.actions.entries).toEqual([]);
    });

    it.each<[string, PodObservation]>([
      ['Exited (would be started)', found('p1', 'Exited')],
      ['Terminated (would be replaced)', found('p1', 'Terminated')],
      ['Running with 0 GPUs (would be replaced)', found('p1', 'Running', 0)],
    ])(
      'a sibling in flight (Starting) blocks every start and create next to a pod that is %s, until max polls → Waiting with no write',
      async (_what, other) => {
        const runpod = new FakeControlPlane()
          .onList(volumeWith(['p1', 'p2']))
          .alwaysObserve('p1', other)
          .alwaysObserve('p2', found('p2', 'Starting'));
        const sut = wakeRunHarness(runpod);

        const result = await sut.run();

        expect(result).toMatchObject({
          outcome: 'Waiting',
          failureKind: null,
          gpuId: null,
          pricePerHour: null,
        });
        expect(runpod.calls).toEqual(['list', ...rounds(TEST_MAX_POLLS, 'observe p1', 'observe p2')]);
        expect(sut.actions.entries).toEqual([]);
        expect(sut.sleeper.delays).toEqual(POLL_GAPS);
      },
    );

    it.each<[string, PodObservation]>([
      ['Provisioning', found('p1', 'Provisioning')],
      ['Starting', found('p1', 'Starting')],
      ['Unknown', found('p1', 'Unknown')],
      ['unreadable (an API blip)', unreadablePod('p1')],
    ])(
      'a lone pod that stays %s is repolled until max polls → Waiting, never started or replaced',
      async (_what, obs) => {
        const runpod = new FakeControlPlane().onList(volumeWith(['p1'])).alwaysObserve('p1', obs);
        const sut = wakeRunHarness(runpod);

        const result = await sut.run();

        expect(result).toMatchObject({ outcome: 'Waiting', podId: 'p1', failureKind: null });
        expect(runpod.calls).toEqual(['list', ...rounds(TEST_MAX_POLLS, 'observe p1')]);
        expect(sut.actions.entries).toEqual([]);
      },
    );

    it('a pod Running with 0 GPUs is replaced, and terminated after the replacement runs', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Running', 0))
        .onCatalog(RANKED_CATALOG)
        .onCreate(created('new1'))
        .onObserve('new1', found('new1', 'Running', 1))
        .onTerminate(actionAccepted());
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual([
        'list',
        'observe p1',
        'catalog',
        `create ${L40S}`,
        'observe new1',
        'terminate p1',
      ]);
      expect(result).toMatchObject({ outcome: 'Created', podId: 'new1' });
    });

    it('a Terminated pod is replaced without a start; the stale id goes through the guard only after the replacement runs', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Terminated'))
        .onCatalog(RANKED_CATALOG)
        .onCreate(created('new1'))
        .onObserve('new1', found('new1', 'Running', 1))
        .onTerminate(actionRefused(404, 'pod not found'));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual([
        'list',
        'observe p1',
        'catalog',
        `create ${L40S}`,
        'observe new1',
        'terminate p1',
      ]);
      expect(result).toMatchObject({ outcome: 'Created', podId: 'new1' });
    });
  });

  describe('an observe 404 on a listed id is re-confirmed with the volume list before any create', () => {
    it('re-confirm unreadable → Failed, nothing created', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']), unreadableList('timeout'))
        .onObserve('p1', notFound('p1'));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual(['list', 'observe p1', 'list']);
      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused' });
      expect(result.message).toMatch(/not found.*unreadable/);
      expect(sut.actions.entries).toEqual([]);
    });

    it('re-confirm finds pods → drives that list instead (here a Running pod: AlreadyRunning, nothing created)', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']), volumeWith(['p2']))
        .onObserve('p1', notFound('p1'))
        .onObserve('p2', found('p2', 'Running', 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual(['list', 'observe p1', 'list', 'observe p2']);
      expect(result).toMatchObject({ outcome: 'AlreadyRunning', podId: 'p2' });
      expect(sut.actions.entries).toEqual([]);
    });

    it('re-confirm says no pod → creates, with nothing stale to terminate', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']), emptyVolume())
        .onObserve('p1', notFound('p1'))
        .onCatalog(RANKED_CATALOG)
        .onCreate(created('new1'))
        .onObserve('new1', found('new1', 'Running', 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual([
        'list',
        'observe p1',
        'list',
        'catalog',
        `create ${L40S}`,
        'observe new1',
      ]);
      expect(result).toMatchObject({ outcome: 'Created', podId: 'new1' });
    });
  });

  describe('before a create', () => {
    it.each<[string, FakeControlPlane, string[]]>([
      ['no pod is on the volume', new FakeControlPlane().onList(emptyVolume()), ['list']],
      [
        'the only pod is Running with 0 GPUs',
        new FakeControlPlane().onList(volumeWith(['p1'])).onObserve('p1', found('p1', 'Running', 0)),
        ['list', 'observe p1'],
      ],
    ])(
      'a blank template refuses before any catalog or create call when %s',
      async (_when, runpod, expectedCalls) => {
        const sut = wakeRunHarness(runpod, { pod: { templateId: ' ' } });

        const result = await sut.run();

        expect(runpod.calls).toEqual(expectedCalls);
        expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused' });
        expect(result.message).toMatch(/RUNPOD_TEMPLATE_ID/);
        expect(sut.actions.entries).toEqual([]);
      },
    );

    it('zero eligible GPUs refuses, naming EVERY excluded GPU with its reason (the price-cap incident)', async () => {
      const runpod = new FakeControlPlane().onList(emptyVolume()).onCatalog(INCIDENT_CATALOG);
      const sut = wakeRunHarness(runpod, { env: { RUNPOD_MAX_PRICE_PER_HOUR: '1.00' } });

      const result = await sut.run();

      expect(runpod.calls).toEqual(['list', 'catalog']);
      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused', candidatesConsidered: 0 });
      expect(result.message).toMatch(/EU-RO-1/);
      expect(result.message).toMatch(/1\.00 USD\/h/);
      for (const [gpuId, reason] of INCIDENT_EXCLUSIONS) {
        expect(result.message).toContain(`${gpuId}: ${reason}`);
      }
      expect(sut.actions.entries).toEqual([]);
    });

    it('an empty (or unreadable) catalog refuses and says so', async () => {
      const runpod = new FakeControlPlane().onList(emptyVolume()).onCatalog([]);
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual(['list', 'catalog']);
      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused' });
      expect(result.message).toMatch(/catalog is unreadable or empty/);
    });
  });

  describe('the create walk', () => {
    const noPod = (): FakeControlPlane =>
      new FakeControlPlane().onList(emptyVolume()).onCatalog(RANKED_CATALOG);

    it.each([400, 403])('%i moves to the next candidate without a retry wait', async (status) => {
      const runpod = noPod()
        .onCreate(createRefused(status), created('new1'))
        .onObserve('new1', found('new1', 'Running', 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual(['list', 'catalog', `create ${L40S}`, `create ${A100}`, 'observe new1']);
      expect(sut.sleeper.delays).toEqual([]);
      expect(result).toMatchObject({
        outcome: 'Created',
        podId: 'new1',
        gpuId: A100,
        pricePerHour: PRICES[A100],
      });
      expect(sut.actions.entries).toEqual([
        wakeAction({
          action: 'Create',
          podId: null,
          gpuId: L40S,
          pricePerHour: PRICES[L40S],
          httpStatus: status,
          ok: false,
          detail: `create refused with ${status}`,
        }),
        wakeAction({
          action: 'Create',
          podId: 'new1',
          gpuId: A100,
          pricePerHour: PRICES[A100],
          httpStatus: 201,
          ok: true,
          detail: null,
        }),
      ]);
    });

    it('400 on every candidate ends Exhausted after one create per candidate', async () => {
      const runpod = noPod().onCreate(createRefused(400), createRefused(400), createRefused(400));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.billableCalls).toEqual([`create ${L40S}`, `create ${A100}`, `create ${A6000}`]);
      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'provider', lastProviderStatus: 400 });
      expect(result.message).toMatch(/Exhausted after 3 of 3 candidate\(s\)/);
    });

    it.each([402, 422])('%i aborts the walk: no second create, no wait', async (status) => {
      const runpod = noPod().onCreate(createRefused(status));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual(['list', 'catalog', `create ${L40S}`]);
      expect(sut.sleeper.delays).toEqual([]);
      expect(result).toMatchObject({
        outcome: 'Failed',
        failureKind: 'provider',
        lastProviderStatus: status,
      });
      expect(result.message).toMatch(/Aborted/);
    });

    it('429 with Retry-After 5: sleeps 5 s, THEN re-reads the volume, THEN re-posts the SAME candidate', async () => {
      const runpod = noPod()
        .onCreate(createRefused(429, 5), created('new1'))
        .onList(emptyVolume())
        .onObserve('new1', found('new1', 'Running', 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.events).toEqual([
        'list',
        'catalog',
        `create ${L40S}`,
        'record Create - ok=false',
        'sleep 5000',
        'list',
        `create ${L40S}`,
        'record Create new1 ok=true',
        'observe new1',
      ]);
      expect(result).toMatchObject({ outcome: 'Created', gpuId: L40S });
    });

    it.each<[number, number | null, number]>([
      [429, 5, 5_000],
      [429, 300, TEST_MAX_RETRY_AFTER_SECONDS * 1000],
      [429, null, TEST_POLL_INTERVAL_MS],
      [503, 2, 2_000],
      [503, 3600, TEST_MAX_RETRY_AFTER_SECONDS * 1000],
      [503, null, TEST_POLL_INTERVAL_MS],
    ])(
      '%i with Retry-After %p waits min(Retry-After ?? poll interval, WAKE_MAX_RETRY_AFTER_SECONDS) = %i ms',
      async (status, retryAfter, expectedMs) => {
        const runpod = noPod()
          .onCreate(createRefused(status, retryAfter), created('new1'))
          .onList(emptyVolume())
          .onObserve('new1', found('new1', 'Running', 1));
        const sut = wakeRunHarness(runpod);

        await sut.run();

        expect(sut.sleeper.delays).toEqual([expectedMs]);
        expect(runpod.billableCalls).toEqual([`create ${L40S}`, `create ${L40S}`]);
      },
    );

    it('503, then the re-read finds a pod that is not stale: it is adopted (no second POST, Create recorded as adopted) and polled to Running', async () => {
      const runpod = new FakeControlPlane()
        .onList(emptyVolume(), volumeWith(['new1']))
        .onCatalog(RANKED_CATALOG)
        .onCreate(createRefused(503, 1))
        .onObserve('new1', found('new1', 'Starting'), found('new1', 'Running', 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual([
        'list',
        'catalog',
        `create ${L40S}`,
        'list',
        'observe new1',
        'observe new1',
      ]);
      expect(result).toMatchObject({
        outcome: 'Created',
        podId: 'new1',
        gpuId: L40S,
        pricePerHour: PRICES[L40S],
      });
      expect(sut.actions.entries).toEqual([
        wakeAction({
          action: 'Create',
          podId: null,
          gpuId: L40S,
          pricePerHour: PRICES[L40S],
          httpStatus: 503,
          ok: false,
          detail: 'create refused with 503',
        }),
        wakeAction({
          action: 'Create',
          podId: 'new1',
          gpuId: L40S,
          pricePerHour: PRICES[L40S],
          httpStatus: 503,
          ok: true,
          detail: expect.stringMatching(/^adopted/),
        }),
      ]);
    });

    it('503 next to a stale pod: the re-read skips the stale id, adopts the new one, and terminates the stale pod once it runs', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']), volumeWith(['p1', 'new1']))
        .onObserve('p1', found('p1', 'Running', 0))
        .onCatalog(RANKED_CATALOG)
        .onCreate(createRefused(503))
        .onObserve('new1', found('new1', 'Running', 1))
        .onTerminate(actionAccepted());
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual([
        'list',
        'observe p1',
        'catalog',
        `create ${L40S}`,
        'list',
        'observe new1',
        'terminate p1',
      ]);
      expect(result).toMatchObject({ outcome: 'Created', podId: 'new1' });
    });

    it('a re-read that lists only the stale pod re-posts the same candidate (the stale pod is never adopted)', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']), volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Terminated'))
        .onCatalog(RANKED_CATALOG)
        .onCreate(createRefused(503), created('new1'))
        .onObserve('new1', found('new1', 'Running', 1))
        .onTerminate(actionAccepted());
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual([
        'list',
        'observe p1',
        'catalog',
        `create ${L40S}`,
        'list',
        `create ${L40S}`,
        'observe new1',
        'terminate p1',
      ]);
      expect(result).toMatchObject({ outcome: 'Created', podId: 'new1' });
    });

    it('the retry budget is 2 and exhaustion is terminal: 429, 429, 429 → two re-posts, then Failed RetriesExhausted (the next candidate is never tried)', async () => {
      const runpod = noPod()
        .onCreate(createRefused(429, 1), createRefused(429, 1), createRefused(429, 1))
        .alwaysList(emptyVolume());
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual([
        'list',
        'catalog',
        `create ${L40S}`,
        'list',
        `create ${L40S}`,
        'list',
        `create ${L40S}`,
      ]);
      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'provider', lastProviderStatus: 429 });
      expect(result.message).toMatch(/RetriesExhausted/);
      expect(sut.sleeper.delays).toEqual([1000, 1000]);
    });

    it('the retry budget is shared across candidates: retries spent on the first leave none for the second', async () => {
      const runpod = noPod()
        .onCreate(createRefused(429, 1), createRefused(503, 1), createRefused(400), createRefused(429, 1))
        .alwaysList(emptyVolume());
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.billableCalls).toEqual([
        `create ${L40S}`,
        `create ${L40S}`,
        `create ${L40S}`,
        `create ${A100}`,
      ]);
      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'provider' });
      expect(result.message).toMatch(/RetriesExhausted/);
    });

    it('whatever RunPod answers, creates never exceed candidates + 2 and every re-post follows a wait and a re-read', async () => {
      const refusal = fc.constantFrom(400, 403, 429, 500, 502, 503).map((status) => createRefused(status, 1));
      await fc.assert(
        fc.asyncProperty(fc.array(refusal, { maxLength: 10 }), async (answers) => {
          // More answers than the walk can ever ask for; a budget bug would show as a 6th create.
          const plenty = Array.from({ length: 10 }, () => createRefused(503, 1));
          const runpod = noPod()
            .onCreate(...answers, ...plenty)
            .alwaysList(emptyVolume());
          const sut = wakeRunHarness(runpod);

          const result = await sut.run();

          const creates = runpod.calls.filter((call) => call.startsWith('create '));
          expect(creates.length).toBeLessThanOrEqual(3 + 2);
          expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'provider' });
          const reposts = runpod.calls.filter(
            (call, i) => call.startsWith('create ') && runpod.calls[i - 1] === 'list',
          );
          expect(reposts.length).toBe(sut.sleeper.delays.length);
        }),
        { numRuns: 150 },
      );
    });

    it('an unreadable re-read before a retry → Failed, no re-post', async () => {
      const runpod = noPod().onCreate(createRefused(503)).onList(unreadableList('http 500'));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual(['list', 'catalog', `create ${L40S}`, 'list']);
      expect(result.outcome).toBe('Failed');
      expect(result.message).toMatch(/unreadable.*not re-posting/);
    });

    it('a transport failure (status 0) → Failed, never retried: a create that timed out may have placed a pod', async () => {
      const runpod = noPod().onCreate(createRefused(0, null, 'connect timeout'));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual(['list', 'catalog', `create ${L40S}`]);
      expect(sut.sleeper.delays).toEqual([]);
      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'provider', lastProviderStatus: 0 });
      expect(sut.actions.entries).toEqual([
        wakeAction({
          action: 'Create',
          podId: null,
          gpuId: L40S,
          pricePerHour: PRICES[L40S],
          httpStatus: 0,
          ok: false,
          detail: 'connect timeout',
        }),
      ]);
    });

    it.each([200, 201, 202])(
      '%i without a pod id → Failed "no pod id", recorded as accepted, and no further create',
      async (status) => {
        const runpod = noPod().onCreate({
          httpStatus: status,
          podId: null,
          retryAfterSeconds: null,
          detail: null,
        });
        const sut = wakeRunHarness(runpod);

        const result = await sut.run();

        expect(runpod.calls).toEqual(['list', 'catalog', `create ${L40S}`]);
        expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'provider', podId: null });
        expect(result.message).toMatch(/no pod id/);
        expect(sut.actions.summary).toEqual(['Create - ok']);
      },
    );

    it('an off-spec 200 with a pod id is Created: the pod exists and bills whatever the status', async () => {
      const runpod = noPod()
        .onCreate(created('new1', 200))
        .onObserve('new1', found('new1', 'Running', 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'Created', podId: 'new1', lastProviderStatus: 200 });
    });
  });

  describe('the new pod', () => {
    it('never Running within max polls → Waiting on the new pod, stale pods left intact (no terminate)', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Running', 0))
        .onCatalog(RANKED_CATALOG)
        .onCreate(created('new1'))
        .onObserve('new1', notFound('new1'), unreadablePod('new1'), found('new1', 'Provisioning'))
        .alwaysObserve('new1', found('new1', 'Starting'));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual([
        'list',
        'observe p1',
        'catalog',
        `create ${L40S}`,
        ...rounds(TEST_MAX_POLLS, 'observe new1'),
      ]);
      expect(result).toMatchObject({
        outcome: 'Waiting',
        failureKind: null,
        podId: 'new1',
        gpuId: L40S,
        pricePerHour: PRICES[L40S],
      });
      expect(result.message).toMatch(/stale pods left intact/);
      expect(sut.actions.summary).toEqual(['Create new1 ok']);
    });

    it.each<[string, PodObservation]>([
      ['Exited', found('new1', 'Exited')],
      ['Error', found('new1', 'Error')],
      ['Terminated', found('new1', 'Terminated')],
      ['Running with 0 GPUs', found('new1', 'Running', 0)],
    ])(
      'reaching %s → Failed "not retrying", no second create, nothing terminated',
      async (_what, terminal) => {
        const runpod = new FakeControlPlane()
          .onList(volumeWith(['p1']))
          .onObserve('p1', found('p1', 'Terminated'))
          .onCatalog(RANKED_CATALOG)
          .onCreate(created('new1'))
          .onObserve('new1', found('new1', 'Starting'), terminal);
        const sut = wakeRunHarness(runpod);

        const result = await sut.run();

        expect(runpod.calls).toEqual([
          'list',
          'observe p1',
          'catalog',
          `create ${L40S}`,
          'observe new1',
          'observe new1',
        ]);
        expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'provider', podId: 'new1' });
        expect(result.message).toMatch(/not retrying/);
      },
    );
  });

  describe('termination', () => {
    it('a termination RunPod refuses is recorded ok:false and the wake is still Created', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Running', 0))
        .onCatalog(RANKED_CATALOG)
        .onCreate(created('new1'))
        .onObserve('new1', found('new1', 'Running', 1))
        .onTerminate(actionRefused(409, 'pod belongs to a cluster'));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'Created', podId: 'new1', failureKind: null });
      expect(sut.actions.entries.at(-1)).toEqual(
        wakeAction({
          action: 'Terminate',
          podId: 'p1',
          gpuId: null,
          pricePerHour: null,
          httpStatus: 409,
          ok: false,
          detail: 'pod belongs to a cluster',
        }),
      );
    });

    it('a termination refused next to an already running pod leaves the wake AlreadyRunning', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['stale', 'fresh']))
        .onObserve('stale', found('stale', 'Exited'))
        .onObserve('fresh', found('fresh', 'Running', 1))
        .onTerminate(actionRefused(500));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'AlreadyRunning', podId: 'fresh' });
      expect(sut.actions.summary).toEqual(['Terminate stale refused']);
    });
  });

  describe('the billable-action audit trail', () => {
    it('records every billable call with trigger wake, the pod name, GPU and price where known, HTTP status and ok', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Exited'), found('p1', 'Exited'))
        .onStart(actionAccepted(200))
        .onCatalog(RANKED_CATALOG)
        .onCreate(createRefused(400, null, 'no instances available'), created('new1', 201))
        .onObserve('new1', found('new1', 'Running', 1))
        .onTerminate(actionAccepted(204));
      const sut = wakeRunHarness(runpod);

      await sut.run();

      expect(sut.actions.entries).toEqual([
        wakeAction({
          action: 'Start',
          podId: 'p1',
          gpuId: null,
          pricePerHour: null,
          httpStatus: 200,
          ok: true,
          detail: null,
        }),
        wakeAction({
          action: 'Create',
          podId: null,
          gpuId: L40S,
          pricePerHour: PRICES[L40S],
          httpStatus: 400,
          ok: false,
          detail: 'no instances available',
        }),
        wakeAction({
          action: 'Create',
          podId: 'new1',
          gpuId: A100,
          pricePerHour: PRICES[A100],
          httpStatus: 201,
          ok: true,
          detail: null,
        }),
        wakeAction({
          action: 'Terminate',
          podId: 'p1',
          gpuId: null,
          pricePerHour: null,
          httpStatus: 204,
          ok: true,
          detail: null,
        }),
      ]);
      expect(sut.actions.entries).toHaveLength(runpod.billableCalls.length);
    });

    it('writes each record right after its RunPod call, before the next call', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Exited'), found('p1', 'Exited'))
        .onStart(actionAccepted())
        .onCatalog(RANKED_CATALOG)
        .onCreate(created('new1'))
        .onObserve('new1', found('new1', 'Running', 1))
        .onTerminate(actionAccepted());
      const sut = wakeRunHarness(runpod);

      await sut.run();

      const billableOrRecord = runpod.events.filter((e) => /^(start|create|terminate|record) /.test(e));
      expect(billableOrRecord).toEqual([
        'start p1',
        'record Start p1 ok=true',
        `create ${L40S}`,
        'record Create new1 ok=true',
        'terminate p1',
        'record Terminate p1 ok=true',
      ]);
    });
  });

  describe('logs', () => {
    // Every row has all three fields: jest reads a missing trailing argument as a done callback.
    type Scenario = [string, () => FakeControlPlane, Readonly<Record<string, string>>];
    const scenarios: Scenario[] = [
      [
        'a start then a replacement',
        () =>
          new FakeControlPlane()
            .onList(volumeWith(['p1']))
            .onObserve('p1', found('p1', 'Exited'), found('p1', 'Exited'))
            .onStart(actionAccepted())
            .onCatalog(RANKED_CATALOG)
            .onCreate(createRefused(503), createRefused(400), created('new1'))
            .onList(emptyVolume())
            .onObserve('new1', found('new1', 'Running', 1))
            .onTerminate(actionRefused(409)),
        {},
      ],
      ['an unreadable list', () => new FakeControlPlane().onList(unreadableList()), {}],
      [
        'a refused catalog',
        () => new FakeControlPlane().onList(emptyVolume()).onCatalog(INCIDENT_CATALOG),
        { RUNPOD_MAX_PRICE_PER_HOUR: '1.00' },
      ],
      [
        'a failed walk',
        () =>
          new FakeControlPlane()
            .onList(emptyVolume())
            .onCatalog(RANKED_CATALOG)
            .onCreate(createRefused(402, null, 'insufficient balance')),
        {},
      ],
    ];

    it.each(scenarios)('never contain the API key (%s)', async (_name, script, env) => {
      const sut = wakeRunHarness(script(), { env });

      const result = await sut.run();

      expect(sut.logs.text()).not.toContain(TEST_API_KEY);
      expect(JSON.stringify(result)).not.toContain(TEST_API_KEY);
      expect(JSON.stringify(sut.actions.entries)).not.toContain(TEST_API_KEY);
    });

    it('log every billable call with pod id, GPU and price', async () => {
      const sut = wakeRunHarness(scenarios[0][1]());

      await sut.run();

      expect(sut.logs.text()).not.toContain(TEST_API_KEY);
      const billable = sut.logs.lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry.billable !== undefined)
        .map((entry) => [entry.billable, entry.podId, entry.gpuId, entry.pricePerHour, entry.httpStatus]);
      expect(billable).toEqual([
        ['Start', 'p1', null, null, 200],
        ['Create', null, L40S, PRICES[L40S], 503],
        ['Create', null, L40S, PRICES[L40S], 400],
        ['Create', 'new1', A100, PRICES[A100], 201],
        ['Terminate', 'p1', null, null, 409],
      ]);
    });
  });

  describe('failure kind: only a wake that issued nothing billable may say "refused"', () => {
    it('a 429 then an unreadable re-read is a refusal: RunPod placed nothing', async () => {
      const runpod = new FakeControlPlane()
        .onList(emptyVolume(), unreadableList())
        .onCatalog(RANKED_CATALOG)
        .onCreate(createRefused(429, 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused' });
    });

    // Refused means "nothing was billed", but a 5xx create may have committed a pod.
    it('a 503 create then an unreadable re-read is not a refusal: the 503 may have placed a billing pod', async () => {
      const runpod = new FakeControlPlane()
        .onList(emptyVolume(), unreadableList())
        .onCatalog(RANKED_CATALOG)
        .onCreate(createRefused(503, 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'provider' });
    });

    // The accepted Start billed, so the wake history must not say Refused.
    it('a blank template after an accepted Start is not a refusal: the Start billed', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Exited'), found('p1', 'Exited'))
        .onStart(actionAccepted());
      const sut = wakeRunHarness(runpod, { pod: { templateId: '' } });

      const result = await sut.run();

      expect(runpod.calls).toEqual(['list', 'observe p1', 'start p1', 'observe p1']);
      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'provider' });
    });
  });

  describe('progress', () => {
    it('reports each phase as the wake moves through it', async () => {
      const runpod = new FakeControlPlane()
        .onList(volumeWith(['p1']), emptyVolume())
        .onObserve('p1', found('p1', 'Exited'), found('p1', 'Exited'))
        .onStart(actionAccepted())
        .onCatalog(RANKED_CATALOG)
        .onCreate(createRefused(429, 1), created('new1'))
        .onObserve('new1', found('new1', 'Starting'), found('new1', 'Running', 1))
        .onTerminate(actionAccepted());
      const sut = wakeRunHarness(runpod);

      await sut.run();

      expect(sut.progress.phases).toEqual([
        'lookup',
        'observe',
        'start',
        'observe',
        'create',
        'retry-wait',
        'create',
        'poll-new-pod',
        'terminate',
      ]);
    });
  });
});

describe(utcStamp.name, () => {
  it('is sortable and legal in a pod name (no dashes, colons or milliseconds)', () => {
    expect(utcStamp(new Date('2026-11-30T10:15:00.123Z'))).toBe('20261130T101500Z');
  });
});
