import type { AccountBillingBucket } from '@podwarden/runpod-client';

const DAY_MS = 86_400_000;

/** Storage of the newest whole day in the aggregate (a day that has ended); null when none reports it. */
export function storagePerDay(buckets: readonly AccountBillingBucket[], now: number): number | null {
  const whole = buckets
    .filter((bucket) => bucket.startMs + DAY_MS <= now && bucket.storageUsd !== null)
    .sort((a, b) => b.startMs - a.startMs);
  return whole[0]?.storageUsd ?? null;
}
