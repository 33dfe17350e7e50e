import { decideVolume, rankPods, type PodObservation } from '@podwarden/policies';
import type { WakeRunContext } from '../wake-run-context';
import { stillStarting, type WakeResult } from '../wake-result';
import { readVolume } from './read-volume';
import { reserveBudget } from './reserve-budget';
import { startStoppedPod } from './start-stopped-pod';

/** Where driving the pods already on the volume left the wake. */
export type DriveOutcome =
  | {
      readonly kind: 'serving';
      readonly servingPodId: string;
      readonly stalePodIds: readonly string[];
      /** The round that found the serving pod: siblings it saw Terminated need no call. */
      readonly observations: readonly PodObservation[];
    }
  | { readonly kind: 'replace'; readonly stalePodIds: readonly string[] }
  | { readonly kind: 'ended'; readonly result: WakeResult };

type RoundOutcome = DriveOutcome | { readonly kind: 'next-round'; readonly podIds?: readonly string[] };

/**
 * Observes every pod on the volume once per round and lets the volume policy
 * decide: serve, start a stopped pod, wait for one coming up, or replace them
 * all. Bounded by WAKE_MAX_POLLS rounds; out of rounds, the wake is Waiting.
 */
export async function driveExistingPods(
  ctx: WakeRunContext,
  podIdsOnVolume: readonly string[],
): Promise<DriveOutcome> {
  let podIds = podIdsOnVolume;
  let lastSeen: readonly PodObservation[] = [];
  const { maxPolls, pollIntervalMs } = ctx.config.wake;
  for (let round = 1; round <= maxPolls; round++) {
    await ctx.progress.report('observe', `round ${round}/${maxPolls}: observing ${podIds.length} pod(s)`);
    lastSeen = await Promise.all(podIds.map((id) => ctx.runpod.observePod(id)));
    const outcome = await decideRound(ctx, lastSeen);
    if (outcome.kind !== 'next-round') return outcome;
    podIds = outcome.podIds ?? podIds;
    if (round < maxPolls) await ctx.pause(pollIntervalMs);
  }
  // The pod coming up, not a stale sibling listed before it.
  const comingUp = rankPods(lastSeen.map((observation) => ({ observation })))?.observation.podId;
  return {
    kind: 'ended',
    result: stillStarting(comingUp ?? podIds[0] ?? null, maxPolls, ctx.state.diagnostics()),
  };
}

async function decideRound(
  ctx: WakeRunContext,
  observations: readonly PodObservation[],
): Promise<RoundOutcome> {
  const decision = decideVolume(
    observations.map((observation) => ({
      observation,
      startAttempted: ctx.state.wasStartAttempted(observation.podId),
    })),
  );
  switch (decision.kind) {
    case 'done':
      return {
        kind: 'serving',
        servingPodId: decision.servingPodId,
        stalePodIds: decision.stalePodIds,
        observations,
      };
    case 'repoll':
      return { kind: 'next-round' };
    case 'start': {
      const price = ctx.state.listedPrice(decision.podId) ?? ctx.pod.maxPricePerHour;
      const overBudget = await reserveBudget(ctx, price);
      if (overBudget !== null) return { kind: 'ended', result: overBudget };
      await startStoppedPod(ctx, decision.podId);
      return { kind: 'next-round' };
    }
    case 'create':
      return replaceOrReconfirm(ctx, observations, decision.stalePodIds);
  }
}

/**
 * A 404 on a remembered id is never a create trigger by itself: a
 * permission-scoped key or a misrouted 404 would bill a second pod next to a
 * live one. Only the volume list can say "no pod".
 */
async function replaceOrReconfirm(
  ctx: WakeRunContext,
  observations: readonly PodObservation[],
  stalePodIds: readonly string[],
): Promise<RoundOutcome> {
  const vanished = observations.find((observation) => observation.kind === 'not-found');
  if (vanished === undefined) return { kind: 'replace', stalePodIds };
  const reconfirm = await readVolume(ctx);
  switch (reconfirm.kind) {
    case 'unreadable':
      return {
        kind: 'ended',
        result: ctx.state.declined(
          `pod ${vanished.podId} read as not found and the volume lookup is unreadable (${reconfirm.reason}); nothing was created`,
        ),
      };
    case 'found':
      return { kind: 'next-round', podIds: reconfirm.podIds };
    case 'not-found':
      return { kind: 'replace', stalePodIds: [] };
  }
}
