import type { IdleTickHarness } from './testing/idle-tick-harness';
import { idleTickHarnesses } from './testing/idle-tick-harness';

const harness = idleTickHarnesses();

/** Pending stops answering `entries`, and the pods whose pending stops the tick read. */
function recordedPendingStops<T>(entries: readonly T[]): {
  read: string[];
  pendingStops: { all: (podName: string) => Promise<T[]> };
} {
  const read: string[] = [];
  return {
    read,
    pendingStops: {
      all: (podName) => {
        read.push(podName);
        return Promise.resolve([...entries]);
      },
    },
  };
}

function phases(h: IdleTickHarness): string[] {
  return h.events.of('phase').map((d) => `${String(d.from)}→${String(d.phase)} ${String(d.stopReason)}`);
}

describe('IdleTickService: what the ticks announce on the event stream', () => {
  it('a boot, a ready model, an idle streak and the idle stop: one event per change, none on a quiet tick', async () => {
    const h = harness();
    h.fake.setPod('p1', { metrics: null, observation: 'Starting' });
    await h.next();
    await h.next();
    h.fake.setPod('p1', { metrics: { active: 0, completed: 0 } });
    await h.lines(7);

    expect(phases(h)).toEqual(['down→booting null', 'booting→ready null', 'ready→down idle']);
    expect(h.events.of('idle-streak').map((d) => d.idleStreak)).toEqual([1, 2, 3, 4, 5]);
    expect(h.events.of('idle-streak')[0]).toMatchObject({ requiredIdleStreak: 6 });
    // The stop itself is announced by the stop service, with its trigger.
    expect(h.events.of('stop')).toEqual([
      expect.objectContaining({ podId: 'p1', trigger: 'idle', ok: true }),
    ]);
    expect(h.events.events.every((e) => e.pod === h.pod().name)).toBe(true);
  });

  it('a busy ready pod says nothing tick after tick', async () => {
    const h = harness();
    h.fake.setPod('p1', { metrics: { active: 1, completed: 0 } });
    await h.next();
    const afterReady = h.events.events.length;
    for (let completed = 1; completed <= 4; completed++) {
      h.fake.setPod('p1', { metrics: { active: 1, completed } });
      await h.next();
    }
    expect(h.events.events.length).toBe(afterReady);
  });

  it('a ready pod seen down while an operator’s accepted stop is pending: the Down edge says manual', async () => {
    const pending = {
      podId: 'p1',
      trigger: 'manual',
      stoppedAt: 0,
      ticksWaited: 0,
      restops: 0,
      confirmedAt: null,
    };
    const { read, pendingStops } = recordedPendingStops([pending]);
    const h = harness({ extras: { pendingStops } });
    h.fake.setPod('p1', { metrics: { active: 1, completed: 0 } });
    await h.next();
    expect(read).toEqual([]);
    // The tick sees the pod stopped before the stop service has marked it down.
    h.fake.setPod('p1', { metrics: null, observation: 'Exited', listedStatus: 'EXITED' });
    await h.next();

    expect(phases(h)).toEqual(['down→ready null', 'ready→down manual']);
    expect(read).toEqual([h.pod().name]);
  });

  it('the pending stops are read only on a Down edge the tick did not stop itself', async () => {
    const { read, pendingStops } = recordedPendingStops([]);
    const h = harness({ extras: { pendingStops } });
    h.fake.setPod('p1', { metrics: { active: 0, completed: 0 } });
    await h.lines(6);
    expect(phases(h)).toEqual(['down→ready null']);
    expect(read).toEqual([]);
    await h.next();

    expect(phases(h)).toEqual(['down→ready null', 'ready→down idle']);
    expect(read).toEqual([]);
  });

  it('a ready pod that goes down with no stop pending: the Down edge gives no reason', async () => {
    const h = harness();
    h.fake.setPod('p1', { metrics: { active: 1, completed: 0 } });
    await h.next();
    h.fake.removePod('p1');
    await h.next();
    expect(phases(h).at(-1)).toBe('ready→down null');
  });
});
