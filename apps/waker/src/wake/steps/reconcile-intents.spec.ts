import type { BillableIntent } from '@podwarden/platform';
import { volumeWith } from '@podwarden/testing';
import { MemoryIntents } from '../testing/memory-intents';
import { scriptedRunPod, wakeRunHarness } from '../testing/wake-run-harness';
import { readVolume } from './read-volume';
import { reconcileIntents } from './reconcile-intents';

function intent(id: string, patch: Partial<BillableIntent>): BillableIntent {
  return {
    id,
    at: '2026-12-01T06:30:00.000Z',
    podName: 'qwen',
    action: 'Terminate',
    podId: 'p1',
    gpuId: null,
    pricePerHour: null,
    requestName: null,
    attemptId: 'attempt-0',
    fenceToken: 1,
    answeredStatus: null,
    ...patch,
  };
}

describe(reconcileIntents.name, () => {
  it("reconciles the waker's own terminate and leaves the stop path's intents (a stop, the ERROR guard's terminate) to the idle monitor", async () => {
    const intents = new MemoryIntents();
    await intents.begin(intent('waker', {}));
    await intents.begin(
      intent('stop', { action: 'Stop', attemptId: 'stop:idle', trigger: 'idle', fenceToken: null }),
    );
    await intents.begin(intent('guard', { attemptId: 'stop:error', trigger: 'error', fenceToken: null }));
    const h = wakeRunHarness(scriptedRunPod().onList(volumeWith(['p1'])), { intents });
    const ctx = h.context();

    await readVolume(ctx);
    await reconcileIntents(ctx);

    expect(h.actions.entries).toEqual([
      expect.objectContaining({ action: 'Terminate', podId: 'p1', ok: false, httpStatus: 0 }),
    ]);
    expect([...intents.entries.keys()]).toEqual(['stop', 'guard']);
  });
});
