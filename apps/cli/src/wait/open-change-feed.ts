import type { StreamOpener } from '../events/event-follower';
import type { GatewayAnswer } from '../gateway/gateway-answer';
import type { ProgressReporter } from '../output/progress-reporter';
import type { Clock } from '../time/clock';
import { PollingFeed, POLL_INTERVAL_MS, type ChangeFeed } from './change-feed';
import { EventFeed } from './event-feed';

/**
 * The event stream when the route answers text/event-stream; otherwise (404
 * on a gateway without it, a proxy that strips server-sent events, any
 * failure) polling GET, said once on stderr.
 */
export async function openChangeFeed(
  open: StreamOpener,
  clock: Clock,
  progress: ProgressReporter,
  signal: AbortSignal,
): Promise<ChangeFeed> {
  const first = await open(null, signal);
  if (first.kind === 'answer') {
    progress.note(
      `no event stream (${describeRefusal(first.answer)}); polling the status every ${POLL_INTERVAL_MS / 1000}s`,
    );
    return new PollingFeed(clock);
  }
  let opened = false;
  const reopen: StreamOpener = (lastEventId, streamSignal) => {
    if (!opened) {
      opened = true;
      return Promise.resolve(first);
    }
    return open(lastEventId, streamSignal);
  };
  const feed = new EventFeed(clock, reopen, (reason) => progress.note(`${reason}; reconnecting`));
  void feed.ended.then((ending) => {
    if (ending.kind === 'not-a-stream')
      progress.note(`the event stream went away (${describeRefusal(ending.answer)}); polling the status`);
    if (ending.kind === 'gave-up') progress.note(`${ending.reason}; polling the status`);
  });
  progress.note('following the event stream');
  return feed;
}

function describeRefusal(answer: GatewayAnswer): string {
  if (answer.kind === 'network') return answer.reason;
  return `HTTP ${answer.status}${answer.contentType === '' ? '' : ` ${answer.contentType.split(';')[0]}`}`;
}
