import type { ListedPod } from '../domain/pod';

export interface OrphanSettings {
  /** POD_NAME_PREFIX: only pods named with it are ever ours to terminate. */
  readonly prefix: string;
  /** ORPHAN_GRACE_MINUTES in ms: a younger pod may be a create still attaching its volume. */
  readonly graceMs: number;
  /** Every configured pod, by name and volume, in config order. */
  readonly pods: ReadonlyArray<{ readonly name: string; readonly volumeId: string }>;
}

export interface Orphan {
  readonly pod: ListedPod;
  readonly ageMs: number;
  /** The configured pod whose history records it: the one its name was made for, else the first. */
  readonly recordUnder: string;
}

/** Not found anywhere any more: nothing left to terminate. */
const GONE = 'TERMINATED';

/**
 * Orphans in the account-wide list: pods with our prefix that mount no configured volume (a lost, dropped
 * or changed volume) and are older than the grace. A pod without the prefix is never ours; one whose age
 * cannot be read is left alone, since terminating cannot be undone.
 */
export function findOrphans(pods: readonly ListedPod[], settings: OrphanSettings, now: number): Orphan[] {
  if (settings.prefix === '' || settings.pods.length === 0) return [];
  const volumes = new Set(settings.pods.map((pod) => pod.volumeId).filter((id) => id.trim() !== ''));
  const orphans: Orphan[] = [];
  for (const pod of pods) {
    if (pod.name === null || !pod.name.startsWith(settings.prefix)) continue;
    if (pod.status?.toUpperCase() === GONE) continue;
    if (pod.volumeIds.some((id) => volumes.has(id))) continue;
    const created = pod.createdAt === null ? Number.NaN : Date.parse(pod.createdAt);
    if (!Number.isFinite(created)) continue;
    const ageMs = now - created;
    if (ageMs < settings.graceMs) continue;
    orphans.push({ pod, ageMs, recordUnder: ownerOf(pod.name.slice(settings.prefix.length), settings.pods) });
  }
  return orphans;
}

/** Created pods are named `{prefix}{podName}-{timestamp}`: the longest configured name that fits wins. */
function ownerOf(rest: string, pods: OrphanSettings['pods']): string {
  const lower = rest.toLowerCase();
  const owners = pods
    .map((pod) => pod.name)
    .filter((name) => lower.startsWith(`${name.toLowerCase()}-`))
    .sort((a, b) => b.length - a.length);
  return owners[0] ?? pods[0].name;
}
