import { ProxyActivityStore, UsageStore } from '@podwarden/platform';
import { newTestService, type TestService } from '@podwarden/platform/testing/new-test-service';
import { LEVEL, type CapturedLogs } from '@podwarden/testing';
import { ActivityPublisher } from './activity-publisher';

const RENEW_EVERY_MS = 1000;

/** The store's writes, recorded in order; `failing` names the writes that reject. */
class RecordingStore {
  readonly writes: string[] = [];
  failing = new Set<string>();
  readonly renewEveryMs = RENEW_EVERY_MS;

  begin(pod: string, id: string): Promise<void> {
    return this.write(`begin ${pod} ${id}`, 'begin');
  }

  end(pod: string, id: string): Promise<void> {
    return this.write(`end ${pod} ${id}`, 'end');
  }

  renew(pod: string, ids: readonly string[]): Promise<void> {
    return this.write(`renew ${pod} ${ids.join(',')}`, 'renew');
  }

  private write(line: string, what: string): Promise<void> {
    this.writes.push(line);
    return this.failing.has(what) ? Promise.reject(new Error(`${what} refused`)) : Promise.resolve();
  }
}

describe(ActivityPublisher.name, () => {
  let store: RecordingStore;
  let logs: CapturedLogs;
  let publisher: ActivityPublisher;
  let uses: string[];
  let usageFails: boolean;
  let built: TestService<ActivityPublisher>;
  beforeEach(async () => {
    // Only the renewal timer is faked: the spec moves it instead of waiting for it.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'Date'] });
    store = new RecordingStore();
    const usage = {
      recordUse: (pod: string) => {
        uses.push(pod);
        return usageFails ? Promise.reject(new Error('usage refused')) : Promise.resolve();
      },
    };
    uses = [];
    usageFails = false;
    built = await newTestService(ActivityPublisher, {
      overrides: [
        [ProxyActivityStore, store],
        [UsageStore, usage],
      ],
    });
    publisher = built.service;
    logs = built.logs;
  });
  afterEach(async () => {
    jest.useRealTimers();
    // Closing the module is what runs onModuleDestroy (the renewal stops).
    await built.close();
  });

  it("writes each request's start and end under the pod's lower-case name", async () => {
    await publisher.begin('Qwen', 'r1');
    await publisher.end('Qwen', 'r1', 0);
    expect(store.writes).toEqual(['begin qwen r1', 'end qwen r1']);
    expect(uses).toEqual(['qwen']);
    expect(logs.lines).toEqual([]);
  });

  it("renews every open request's lease on each renewal, per pod, until it ends", async () => {
    await publisher.begin('qwen', 'r1');
    await publisher.begin('QWEN', 'r2');
    await publisher.begin('llama', 'r3');
    store.writes.length = 0;
    await jest.advanceTimersByTimeAsync(RENEW_EVERY_MS);
    expect(store.writes).toEqual(['renew qwen r1,r2', 'renew llama r3']);
    await publisher.end('qwen', 'r1', 0);
    await publisher.end('llama', 'r3', 0);
    store.writes.length = 0;
    await jest.advanceTimersByTimeAsync(RENEW_EVERY_MS);
    // A pod with nothing open is not renewed at all.
    expect(store.writes).toEqual(['renew qwen r2']);
    await publisher.end('qwen', 'r2', 0);
    store.writes.length = 0;
    await jest.advanceTimersByTimeAsync(3 * RENEW_EVERY_MS);
    expect(store.writes).toEqual([]);
  });

  it('a request that begins again after its pod emptied is renewed again', async () => {
    await publisher.begin('qwen', 'r1');
    await publisher.end('qwen', 'r1', 0);
    await publisher.begin('qwen', 'r2');
    store.writes.length = 0;
    await jest.advanceTimersByTimeAsync(RENEW_EVERY_MS);
    expect(store.writes).toEqual(['renew qwen r2']);
  });

  it('an end of a request it never began writes the end and renews nothing', async () => {
    await publisher.end('qwen', 'stray', 0);
    await jest.advanceTimersByTimeAsync(RENEW_EVERY_MS);
    expect(store.writes).toEqual(['end qwen stray']);
  });

  it.each(['begin', 'end', 'renew'])(
    'a %s write Redis refuses is one Warning and the request goes on',
    async (what) => {
      store.failing.add(what);
      await expect(publisher.begin('Qwen', 'r1')).resolves.toBeUndefined();
      await jest.advanceTimersByTimeAsync(RENEW_EVERY_MS);
      await expect(publisher.end('Qwen', 'r1', 0)).resolves.toBeUndefined();
      expect(logs.lines).toEqual([
        expect.objectContaining({
          level: LEVEL.warn,
          pod: 'qwen',
          err: `${what} refused`,
          msg: `proxy activity ${what} not written`,
        }),
      ]);
    },
  );

  it("a usage record Redis refuses is one Warning; the request's end is still written", async () => {
    usageFails = true;
    await publisher.begin('Qwen', 'r1');
    await expect(publisher.end('Qwen', 'r1', 0)).resolves.toBeUndefined();
    expect(store.writes).toEqual(['begin qwen r1', 'end qwen r1']);
    expect(uses).toEqual(['qwen']);
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.warn,
        pod: 'qwen',
        err: 'usage refused',
        msg: 'proxy activity usage record not written',
      }),
    ]);
  });

  it('stops renewing when the module is destroyed', async () => {
    await publisher.begin('qwen', 'r1');
    publisher.onModuleDestroy();
    store.writes.length = 0;
    await jest.advanceTimersByTimeAsync(3 * RENEW_EVERY_MS);
    expect(store.writes).toEqual([]);
  });
});
