import type { FakeRunPod } from '@podwarden/testing';
import {
  actionAccepted,
  actionRefused,
  captureLogs,
  createRefused,
  created,
  emptyVolume,
  found,
  unreadableList,
  volumeWith,
} from '@podwarden/testing';
import { WakeRun } from './wake-run';
import { fixedClock } from './testing/fixed-clock';
import { newWakeDependencies } from './testing/new-wake-run';
import { InstantSleep } from './testing/instant-sleep';
import { MemoryIntents } from './testing/memory-intents';
import { RecordingActionLog } from './testing/recording-action-log';
import { RecordingProgressReporter } from './testing/recording-progress-reporter';
import { A100, INCIDENT_CATALOG, L40S, PRICES, RANKED_CATALOG } from './testing/gpu-catalogs';
import { TEST_API_KEY, TEST_POLL_INTERVAL_MS, testConfig, testPod } from './testing/test-config';
import { scriptedRunPod, wakeRunHarness } from './testing/wake-run-harness';
import { wakeAction } from './testing/wake-scenarios';

/** The whole run: what holds across its steps (each step has a spec of its own under ./steps). */
describe(WakeRun.name, () => {
  describe('guards before any RunPod call', () => {
    it.each([
      ['the API key is missing', () => scriptedRunPod().unconfigured(), {}],
      ['the volume id is blank', () => scriptedRunPod(), { volumeId: '  ' }],
    ])('refuses when %s, with zero RunPod calls and zero writes', async (_why, script, pod) => {
      const runpod = script();
      const sut = wakeRunHarness(runpod, { pod });

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused', podId: null });
      expect(result.message).toMatch(/not configured/);
      expect(runpod.calls).toEqual([]);
      expect(sut.actions.entries).toEqual([]);
    });
  });

  describe('no pod on the volume', () => {
    it('reads the catalog, creates on the cheapest eligible GPU, polls it to Running and answers Created with its GPU and price', async () => {
      const runpod = scriptedRunPod()
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
        message: `created pod new1 on ${L40S} at ${PRICES[L40S]} USD/h`,
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
  });

  describe('the billable-action audit trail', () => {
    it('records every billable call with trigger wake, the pod name, GPU and price where known, HTTP status and ok', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Exited'), found('p1', 'Exited'))
        .onStart(actionAccepted(200))
        .onCatalog(RANKED_CATALOG)
        .onCreate(createRefused(400, null, 'no instances available'), created('new1', 201))
        .onObserve('new1', found('new1', 'Running', 1), found('new1', 'Running', 1))
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
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Exited'), found('p1', 'Exited'))
        .onStart(actionAccepted())
        .onCatalog(RANKED_CATALOG)
        .onCreate(created('new1'))
        .onObserve('new1', found('new1', 'Running', 1), found('new1', 'Running', 1))
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
    type Scenario = [string, () => FakeRunPod, Readonly<Record<string, string>>];
    const scenarios: Scenario[] = [
      [
        'a start then a replacement',
        () =>
          scriptedRunPod()
            .onList(volumeWith(['p1']))
            .onObserve('p1', found('p1', 'Exited'), found('p1', 'Exited'))
            .onStart(actionAccepted())
            .onCatalog(RANKED_CATALOG)
            .onCreate(createRefused(503), createRefused(400), created('new1'))
            .onList(emptyVolume())
            .onObserve('new1', found('new1', 'Running', 1), found('new1', 'Running', 1))
            .onTerminate(actionRefused(409)),
        {},
      ],
      ['an unreadable list', () => scriptedRunPod().onList(unreadableList()), {}],
      [
        'a refused catalog',
        () => scriptedRunPod().onList(emptyVolume()).onCatalog(INCIDENT_CATALOG),
        { RUNPOD_MAX_PRICE_PER_HOUR: '1.00' },
      ],
      [
        'a failed walk',
        () =>
          scriptedRunPod()
            .onList(emptyVolume())
            .onCatalog(RANKED_CATALOG)
            .onCreate(createRefused(402, null, 'insufficient balance')),
        {},
      ],
    ];

    it.each(scenarios)('never contain the API key (%s)', async (_name, script, env) => {
      const sut = wakeRunHarness(script(), { env });

      const result = await sut.run();

      // Everything this wake wrote: its log lines, its result and its action records.
      const written = [sut.logs.text(), JSON.stringify(result), JSON.stringify(sut.actions.entries)].join(
        '\n',
      );
      expect(written).not.toContain(TEST_API_KEY);
    });

    it('log every billable call with pod id, GPU, price and HTTP status: accepted at Information, refused at Warning', async () => {
      const sut = wakeRunHarness(scenarios[0][1]());

      await sut.run();

      expect(sut.logs.text()).not.toContain(TEST_API_KEY);
      const billable = sut.logs.lines
        .filter((entry) => entry.billable !== undefined)
        .map((entry) => [
          entry.level,
          entry.billable,
          entry.podId,
          entry.gpuId,
          entry.pricePerHour,
          entry.httpStatus,
        ]);
      expect(billable).toEqual([
        [30, 'Start', 'p1', null, null, 200],
        [40, 'Create', null, L40S, PRICES[L40S], 503],
        [40, 'Create', null, L40S, PRICES[L40S], 400],
        [30, 'Create', 'new1', A100, PRICES[A100], 201],
        [40, 'Terminate', 'p1', null, null, 409],
      ]);
      expect(
        sut.logs.lines.filter((entry) => entry.billable !== undefined).every((e) => e.trigger === 'wake'),
      ).toBe(true);
    });
  });

  describe('failure kind: only a wake that issued nothing billable may say "refused"', () => {
    it('a 429 then an unreadable re-read is a refusal: RunPod placed nothing', async () => {
      const runpod = scriptedRunPod()
        .onList(emptyVolume(), unreadableList())
        .onCatalog(RANKED_CATALOG)
        .onCreate(createRefused(429, 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused' });
    });

    // Refused means "nothing was billed", but a 5xx create may have committed a pod.
    it('a 503 create then an unreadable re-read is not a refusal: the 503 may have placed a billing pod', async () => {
      const runpod = scriptedRunPod()
        .onList(emptyVolume(), unreadableList())
        .onCatalog(RANKED_CATALOG)
        .onCreate(createRefused(503, 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'provider' });
    });

    it.each<[string, number[], 'refused' | 'provider']>([
      ['a 400 then a 429 placed nothing', [400, 429], 'refused'],
      ['a 500 may have placed a pod', [500], 'provider'],
      ['a 599 may have placed a pod', [599], 'provider'],
    ])('%s: an unreadable re-read before the retry then says %s', async (_what, statuses, failureKind) => {
      const runpod = scriptedRunPod()
        .onList(emptyVolume(), unreadableList())
        .onCatalog(RANKED_CATALOG)
        .onCreate(...statuses.map((status) => createRefused(status, 1)));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls.at(-1)).toBe('list');
      expect(result).toMatchObject({ outcome: 'Failed', failureKind });
    });

    // The accepted Start billed, so the wake history must not say Refused.
    it('a blank template after an accepted Start is not a refusal: the Start billed', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Exited'), found('p1', 'Exited'))
        .onStart(actionAccepted());
      const sut = wakeRunHarness(runpod, { pod: { templateId: '' } });

      const result = await sut.run();

      expect(runpod.calls).toEqual(['list', 'observe p1', 'start p1', 'observe p1']);
      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'provider' });
    });

    it('a refused Start then a blank template is still a refusal: RunPod billed nothing', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Exited'), found('p1', 'Exited'))
        .onStart(actionRefused(500));
      const sut = wakeRunHarness(runpod, { pod: { templateId: '' } });

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused', lastProviderStatus: 500 });
    });
  });

  describe('progress', () => {
    it('reports each phase as the wake moves through it', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']), emptyVolume())
        .onObserve('p1', found('p1', 'Exited'), found('p1', 'Exited'))
        .onStart(actionAccepted())
        .onCatalog(RANKED_CATALOG)
        .onCreate(createRefused(429, 1), created('new1'))
        .onObserve(
          'new1',
          found('new1', 'Starting'),
          found('new1', 'Running', 1),
          found('new1', 'Running', 1),
        )
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
      // What GET shows while the wake runs: each report says where the wake is, in words.
      expect(sut.progress.reports.map((r) => r.message)).toEqual([
        'looking up pods on volume vol-ours',
        'round 1/4: observing 1 pod(s)',
        'starting stopped pod p1',
        'round 2/4: observing 1 pod(s)',
        'reading the GPU catalog',
        `creating a pod on ${L40S} at ${PRICES[L40S]} USD/h`,
        'RunPod asked to retry; waiting 1s before re-reading the volume',
        `creating a pod on ${L40S} at ${PRICES[L40S]} USD/h`,
        'round 1/4: waiting for pod new1 to run',
        'round 2/4: waiting for pod new1 to run',
        'terminating stale pod p1',
      ]);
    });
  });

  describe('cancellation (the job AbortSignal)', () => {
    it('an aborted signal stops the wake before its next RunPod call and before its next wait', async () => {
      const job = new AbortController();
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']))
        .onObserve('p1', () => {
          job.abort('operator cancelled');
          return found('p1', 'Starting');
        })
        .alwaysObserve('p1', found('p1', 'Starting'));
      const sut = wakeRunHarness(runpod);

      await expect(sut.run(job.signal)).rejects.toThrow('wake cancelled: operator cancelled');

      expect(runpod.calls).toEqual(['list', 'observe p1']);
      expect(sut.sleeper.delays).toEqual([]);
    });

    it('a signal aborted before the run makes no RunPod call at all', async () => {
      const runpod = scriptedRunPod().onList(volumeWith(['p1']));
      const sut = wakeRunHarness(runpod);

      await expect(sut.run(AbortSignal.abort())).rejects.toThrow('wake cancelled: no reason given');

      expect(runpod.calls).toEqual([]);
    });
  });

  describe('the daily budget', () => {
    it('reserves for the dearest candidate the walk may end on, before the first create', async () => {
      const runpod = scriptedRunPod()
        .onList(emptyVolume())
        .onCatalog(RANKED_CATALOG)
        .onCreate(created('new1'))
        .onObserve('new1', found('new1', 'Running'));
      const asked: Array<{ pricePerHour: number }> = [];
      const ledger = {
        reserve: async (_pod: string, reservation: { pricePerHour: number }) => {
          asked.push(reservation);
          runpod.note('reserve');
          return {
            kind: 'reserved' as const,
            spentMicros: 0,
            reservedMicros: 0,
            accruingMicros: 0,
            providerMicros: null,
          };
        },
      };
      const config = testConfig();
      const intents = new MemoryIntents();
      const deps = newWakeDependencies({
        config,
        client: runpod,
        actions: new RecordingActionLog(runpod, intents),
        intents,
        logger: captureLogs().logger,
        sleep: new InstantSleep().sleep,
        now: fixedClock(),
        ledger,
      });

      const result = await new WakeRun(deps, testPod(config), new RecordingProgressReporter()).run();

      expect(result.outcome).toBe('Created');
      // RANKED_CATALOG's eligible cards cost 0.86, 1.19 and 1.49 USD/h.
      expect(asked.map((r) => r.pricePerHour)).toEqual([1.49]);
      expect(runpod.events.slice(0, 3)).toEqual(['list', 'catalog', 'reserve']);
    });
  });
});
