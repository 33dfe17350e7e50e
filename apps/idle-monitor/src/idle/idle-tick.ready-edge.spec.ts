import { NO_COMPLETION, type WakeAttemptView } from '@podwarden/platform';
import { captureLogs } from '@podwarden/testing';
import { TickStatusEffects } from './tick-status-effects';
import { T0, idleTickHarnesses, type IdleTickHarness } from './testing/idle-tick-harness';

// At the tick where a pod becomes ready, its wake record is read once: the status effects read it for
// the time-to-ready and the rhythm keeper takes that read for the boot it records.
const harness = idleTickHarnesses();
const REQUESTED_AT = T0 - 120_000;

const ATTEMPT: WakeAttemptView = {
  ...NO_COMPLETION,
  attemptId: 'a-1',
  requestedAt: new Date(REQUESTED_AT).toISOString(),
  requestedBy: null,
  wakeOutcome: 'Created',
  podId: 'p1',
  gpuId: 'NVIDIA L40S',
};

/** One wake history shared by the status effects and the rhythm keeper, as in the module; counts reads. */
function recordingHistory(options: { firstReadFails?: boolean } = {}) {
  const reads: string[] = [];
  const history = {
    recent: (pod: string): Promise<WakeAttemptView[]> => {
      reads.push(pod);
      if (options.firstReadFails === true && reads.length === 1)
        return Promise.reject(new Error('connection lost'));
      return Promise.resolve([ATTEMPT]);
    },
  };
  const status = new TickStatusEffects({
    publisher: { begin: () => Promise.resolve(null), publish: () => Promise.resolve() },
    history,
    readyTimes: { add: () => Promise.resolve() },
    readyLog: { record: () => Promise.resolve() },
    logger: captureLogs().logger,
    timeoutMs: 1_000,
  });
  return { reads, options: { rhythm: true, rhythmHistory: history, extras: { status } } };
}

/** The first tick that scrapes the pod: its ready edge. */
async function readyTick(h: IdleTickHarness): Promise<void> {
  h.fake.setPod('p1', { metrics: { active: 0, completed: 0 } });
  const { record } = await h.next();
  expect(record.state.readySince).toBe(T0 + 1000);
}

describe('IdleTickService: the wake record at the ready edge', () => {
  it('is read once; the boot in the usage record starts at that wake', async () => {
    const shared = recordingHistory();
    const h = harness(shared.options);
    await readyTick(h);
    expect(shared.reads).toEqual(['qwen']);
    const { boots } = await h.usage.read('qwen', T0 - 86_400_000);
    expect(boots).toEqual([
      expect.objectContaining({ wakeAt: REQUESTED_AT, readyAt: T0 + 1000, prewake: false }),
    ]);
    await h.next();
    expect(shared.reads).toEqual(['qwen']);
  });

  it('when the first read fails, the rhythm keeper reads it again and the boot still starts at the wake', async () => {
    const shared = recordingHistory({ firstReadFails: true });
    const h = harness(shared.options);
    await readyTick(h);
    expect(shared.reads).toEqual(['qwen', 'qwen']);
    const { boots } = await h.usage.read('qwen', T0 - 86_400_000);
    expect(boots).toEqual([expect.objectContaining({ wakeAt: REQUESTED_AT })]);
  });
});
