import type { CommandContext } from '../command-context';
import { podPath, START_TIMEOUT_MS } from '../gateway/gateway-client';
import type { PodStatus } from '../gateway/pod-status';
import { openChangeFeed } from './open-change-feed';
import { waitUntilReady } from './ready-wait';
import { requestWake } from './wake-request';
import type { WaitTracker } from './wait-tracker';

/**
 * `start --wait`: ask for the wake, then follow the pod until its model is
 * ready (readySince on the wake's pod), on the event stream when the gateway
 * has one and by polling GET otherwise. Returns the ready status.
 */
export async function startAndWait(
  context: CommandContext,
  timeoutMs: number,
  tracker: WaitTracker,
  interrupt: AbortSignal,
): Promise<PodStatus> {
  const { client, clock } = context;
  const name = tracker.name;
  const progress = context.progress(name);
  const limits = { deadline: clock.now() + timeoutMs, timeoutMs };
  const postStart = (signal: AbortSignal) =>
    client.post(podPath(name, '/start'), undefined, { signal, timeoutMs: START_TIMEOUT_MS });
  progress.note(
    `asking the gateway to wake ${name} (it answers once the wake is done, or within its request wait)`,
  );
  const start = await requestWake({ clock, postStart, progress, interrupt }, limits, tracker);
  tracker.attemptId = start.attemptId;
  progress.note(
    `wake ${start.attemptId}: ${start.outcome}${start.podId === null ? '' : ` (pod ${start.podId})`}`,
  );
  const feed = await openChangeFeed(
    (lastEventId, signal) => client.openStream(podPath(name, '/events'), lastEventId, signal),
    clock,
    progress,
    interrupt,
  );
  try {
    const readStatus = (signal: AbortSignal) => client.get(podPath(name), { signal });
    const ready = await waitUntilReady(
      { clock, readStatus, feed, progress, interrupt },
      start,
      limits,
      tracker,
    );
    progress.note(`ready: the model answers on pod ${ready.podId} since ${ready.body.readySince}`);
    return ready;
  } finally {
    feed.close();
  }
}
