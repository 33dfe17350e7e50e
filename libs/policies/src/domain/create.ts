/** What one POST /pods answered: the raw status (0 = transport failure), the id on 2xx, Retry-After on 429/503. */
export interface CreatePodResult {
  readonly httpStatus: number;
  readonly podId: string | null;
  /** Seconds to wait, already resolved from a delta or an HTTP date; null when absent or unparseable. */
  readonly retryAfterSeconds: number | null;
  /** Problem-details detail or a short reason, for logs and the wake history; never contains the key. */
  readonly detail: string | null;
}
