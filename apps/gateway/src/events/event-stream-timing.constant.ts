import type { SessionTiming } from './event-stream-session';

export const EVENT_STREAM_TIMING = Symbol('EventStreamTiming');

// Well under the 60–120 s idle timeouts of common proxies and load balancers.
export const DEFAULT_EVENT_STREAM_TIMING: SessionTiming = { heartbeatMs: 15_000, retryMs: 3_000 };
