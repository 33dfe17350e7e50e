import type { PodObservation } from '../domain/pod';
import { judgeCreatedPod, type CreatedPodVerdict } from './created-pod-verdict';
import type { RequestedContract } from './realised-contract';

/**
 * What the last read of a pod left to boot showed, deciding what stops it if it never serves: `booting`,
 * boot grace; `unnamed` (on our volume, a status we cannot name), the runtime cap; `unread` (not listed,
 * or the read failed), boot grace if it boots on our volume, the orphan sweep if it landed off it.
 */
export type LastSeen =
  | { readonly kind: 'booting'; readonly status: 'Provisioning' | 'Starting' }
  | { readonly kind: 'unnamed' }
  | { readonly kind: 'unread'; readonly why: string };

/**
 * What the wake does with its placed pod after one read. `leave-to-boot`, when polls run out with nothing
 * terminal seen, ends the wake Waiting: a slow host pulling a large image is no fault, and tearing the pod
 * down would bill a new pod on every retry. `tear-down` is for a terminal verdict; the creator owns it.
 */
export type CreatedPodStep =
  | { readonly kind: 'running' }
  | { readonly kind: 'poll-again' }
  | { readonly kind: 'leave-to-boot'; readonly lastSeen: LastSeen }
  | {
      readonly kind: 'tear-down';
      readonly verdict: Extract<CreatedPodVerdict, { kind: 'mismatch' | 'failed' }>;
    }
  | { readonly kind: 'gone' };

/** The creator's teardown is for terminal verdicts only; running out of polls is not one. */
export function decideCreatedPodRound(
  observation: PodObservation,
  requested: RequestedContract,
  pollsLeft: boolean,
): CreatedPodStep {
  const verdict = judgeCreatedPod(observation, requested);
  switch (verdict.kind) {
    case 'running':
    case 'gone':
      return verdict;
    case 'mismatch':
    case 'failed':
      return { kind: 'tear-down', verdict };
    case 'wait':
      return pollsLeft
        ? { kind: 'poll-again' }
        : { kind: 'leave-to-boot', lastSeen: lastSeenOf(observation) };
  }
}

/** The clauses a Waiting answer and its history record carry: what was seen, and what guards the pod now. */
export function describeLeftToBoot(lastSeen: LastSeen): { readonly seen: string; readonly guard: string } {
  switch (lastSeen.kind) {
    case 'booting':
      return {
        seen: `still ${lastSeen.status}`,
        guard: 'boot grace stops it if it is not ready within RUNPOD_BOOT_GRACE_MINUTES',
      };
    case 'unnamed':
      return {
        seen: 'in a status podwarden cannot name',
        guard:
          'boot grace stops it once it is seen booting and not ready in time, the runtime cap in any case',
      };
    case 'unread':
      return {
        seen: lastSeen.why,
        guard:
          'boot grace stops it if it boots on the volume and is not ready in time, the orphan sweep if it is off the volume',
      };
  }
}

function lastSeenOf(observation: PodObservation): LastSeen {
  switch (observation.kind) {
    case 'unreadable':
      return { kind: 'unread', why: `unreadable (${observation.reason})` };
    case 'not-found':
      return { kind: 'unread', why: 'not listed yet' };
    case 'found':
      // judgeCreatedPod waits on a found pod only while it is Provisioning, Starting or Unknown.
      return observation.status === 'Provisioning' || observation.status === 'Starting'
        ? { kind: 'booting', status: observation.status }
        : { kind: 'unnamed' };
  }
}
