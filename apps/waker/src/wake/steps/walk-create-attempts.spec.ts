import fc from 'fast-check';
import { OUR_VOLUME, createRefused, created, emptyVolume, found, type FakeRunPod } from '@podwarden/testing';
import { A100, A6000, L40S, PRICES, RANKED_CATALOG } from '../testing/gpu-catalogs';
import { TEST_MAX_RETRY_AFTER_SECONDS, TEST_POLL_INTERVAL_MS } from '../testing/test-config';
import { MemoryIntents } from '../testing/memory-intents';
import { scriptedRunPod, wakeRunHarness } from '../testing/wake-run-harness';
import { wakeAction } from '../testing/wake-scenarios';
import { walkCreateAttempts } from './walk-create-attempts';

/** Step 3 through the whole run: the creates, as the create-walk policy directs them. */
describe(walkCreateAttempts.name, () => {
  const noPod = (): FakeRunPod => scriptedRunPod().onList(emptyVolume()).onCatalog(RANKED_CATALOG);

  it('posts our template, datacenter, volume and a prefixed, timestamped name', async () => {
    const runpod = noPod().onCreate(created('new1')).onObserve('new1', found('new1', 'Running'));
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

  it.each([400, 403])('%i moves to the next candidate without a retry wait', async (status) => {
    const runpod = noPod()
      .onCreate(createRefused(status), created('new1'))
      .onObserve('new1', found('new1', 'Running', 1));
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.calls).toEqual(['list', 'catalog', `create ${L40S}`, `create ${A100}`, 'observe new1']);
    expect(sut.logs.find('create')).toEqual([
      expect.objectContaining({ level: 40, msg: `create on ${L40S} returned ${status}`, billable: 'Create' }),
      expect.objectContaining({
        level: 30,
        msg: `created pod new1 on ${A100} at ${PRICES[A100]} USD/h`,
        billable: 'Create',
      }),
    ]);
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
    expect(result.message).toBe('create ended Exhausted after 3 of 3 candidate(s) and 0 retries');
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
        expect(creates.length).toBeGreaterThanOrEqual(1);
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
    '%i without a pod id → Failed "no pod id", recorded as accepted but logged at Warning, and no further create',
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
      expect(sut.logs.messages('warn')).toEqual([`create on ${L40S} returned ${status} without a pod id`]);
    },
  );

  it('a 3xx is not an accepted create: recorded ok:false, and the walk stops', async () => {
    const runpod = noPod().onCreate(createRefused(300, null, 'redirected'));
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.billableCalls).toEqual([`create ${L40S}`]);
    expect(sut.actions.summary).toEqual(['Create - refused']);
    expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'provider', lastProviderStatus: 300 });
  });

  it('an off-spec 200 with a pod id is Created: the pod exists and bills whatever the status', async () => {
    const runpod = noPod()
      .onCreate(created('new1', 200))
      .onObserve('new1', found('new1', 'Running', 1));
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(result).toMatchObject({ outcome: 'Created', podId: 'new1', lastProviderStatus: 200 });
  });

  it("before its first post, re-reads the volume to settle an earlier run's create still in doubt", async () => {
    const intents = new MemoryIntents();
    await intents.begin({
      id: 'earlier',
      at: '2026-11-30T10:00:00.000Z',
      podName: 'qwen',
      action: 'Create',
      podId: null,
      gpuId: L40S,
      pricePerHour: PRICES[L40S] ?? 0,
      requestName: 'podwarden-qwen-20261130T100000Z',
      attemptId: 'attempt-0',
      fenceToken: 1,
      answeredStatus: 502,
    });
    const runpod = noPod()
      .onList(emptyVolume())
      .onCreate(created('new1'))
      .onObserve('new1', found('new1', 'Running'));
    const sut = wakeRunHarness(runpod, { intents });

    const result = await sut.run();

    // The test config's settle period is 0 s: the doubt is dropped at that re-read, then the walk posts.
    expect(runpod.calls).toEqual(['list', 'catalog', 'list', `create ${L40S}`, 'observe new1']);
    expect(sut.logs.messages('info')).toContain('create in doubt placed no pod; doubt dropped');
    expect(result).toMatchObject({ outcome: 'Created', podId: 'new1' });
  });
});
