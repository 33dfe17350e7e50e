import { z } from 'zod';
import type { BilledBucket } from '@podwarden/policies';
import type { BillingSnapshot } from './billing-store';

/**
 * RunPod's billing as the reconcile stored it. The spend and its times have no fallback: an unreadable
 * snapshot or bucket list makes the read throw (callers show billing as unreadable, never as zero). The
 * storage figure only informs and is null already when not read, so a wrong type reads as absent.
 */
export const billingSnapshotSchema: z.ZodType<BillingSnapshot> = z.object({
  asOf: z.string(),
  day: z.string(),
  providerTodayUsd: z.number(),
  storageUsdPerDay: z.number().nullable().catch(null),
  lagMs: z.number(),
});

export const billedBucketsSchema: z.ZodType<BilledBucket[]> = z.array(
  z.object({ podId: z.string(), startMs: z.number(), usd: z.number() }),
);
