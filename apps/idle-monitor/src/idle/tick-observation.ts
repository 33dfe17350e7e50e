import {
  aggregateSignals,
  lookupVolume,
  nextBaselines,
  nextErrorClocks,
  nextNeverRanClocks,
  seenUpPods,
  withProxyActivity,
  type BaselineBook,
  type ErrorClocks,
  type ListedPod,
  type NeverRanClocks,
  type PodConfig,
  type PodSignal,
  type PodSignalOf,
  type ProxyActivity,
  type VolumeSignal,
} from '@podwarden/policies';
import type { PodList } from '@podwarden/runpod-client';
import { errorMessage, type IdleRecord, boundedRead } from '@podwarden/platform';
import type { IdleTickDependencies } from './idle-tick-dependencies';
import type { TickContext } from './tick-context';
import { warnManyPods } from './tick-log';
import { observeVolume } from './volume-observation';

/** What reading a volume needs of the tick's dependencies. */
export type TickObservationDeps = Pick<
  IdleTickDependencies,
  'client' | 'config' | 'logger' | 'now' | 'status' | 'proxyActivity'
>;

/** What one tick read of a pod's volume. */
export interface TickObservation {
  readonly perPod: PodSignalOf[];
  /** The pods seen up this tick (or last seen up, when the list failed): the cap's targets. */
  readonly seenUp: readonly string[];
  /** Each pod's own clock of going without a runtime. */
  readonly neverRanSince: NeverRanClocks;
  /** Each pod's own clock of being seen in ERROR. */
  readonly errorSince: ErrorClocks;
  readonly podsOnVolume: readonly string[];
  readonly aggregate: VolumeSignal;
  readonly baselines: BaselineBook;
  /** The proxies' traffic as read after the scrape (null: unreadable), and the scrape's own signal. */
  readonly proxy?: ProxyActivity | null;
  readonly scraped?: PodSignal;
}

/** Reads every pod on the volume and folds the readings into one signal and the next baselines. */
export async function observeTick(
  deps: TickObservationDeps,
  pod: PodConfig,
  list: PodList,
  record: IdleRecord,
  tick: TickContext,
): Promise<TickObservation> {
  const { client, config, logger } = deps;
  const lookup = lookupVolume(list, pod.volumeId);
  const { idleConcurrency } = config.tuning;
  const seen = await observeVolume(client, pod, lookup, record.baselines, idleConcurrency, tick.signal);
  await deps.status.publish(pod, tick.tickets?.get(pod.name) ?? null, lookup, seen.readings);
  warnManyPods(logger, pod, seen.readings);
  const podsOnVolume = lookup.kind === 'found' ? lookup.podIds : [];
  const perPod = seen.readings.map((r) => ({ podId: r.podId, signal: r.signal }));
  return {
    perPod,
    seenUp: seenUpPods(lookup, perPod, listedOf(list), record.seenUp ?? []),
    neverRanSince: nextNeverRanClocks(record.neverRanSince ?? {}, lookup, perPod, deps.now()),
    errorSince: nextErrorClocks(
      record.errorSince ?? {},
      lookup,
      seen.readings.map((r) => ({ podId: r.podId, served: r.scrape !== null, observation: r.observation })),
      listedOf(list),
      deps.now(),
    ),
    podsOnVolume,
    aggregate: aggregateSignals(lookup, perPod),
    // An unreadable list says nothing about which pods are on the volume: keep what we had.
    baselines:
      lookup.kind === 'unreadable'
        ? record.baselines
        : nextBaselines(record.baselines, podsOnVolume, seen.baselineUpdates),
  };
}

/** Read after the scrape, so a request that ended between the scrape and now still counts. */
export async function withProxyTraffic(
  deps: TickObservationDeps,
  pod: PodConfig,
  record: IdleRecord,
  seen: TickObservation,
): Promise<TickObservation> {
  const { config, logger } = deps;
  let proxy: ProxyActivity | null;
  try {
    proxy = await boundedRead(config, deps.proxyActivity.read(pod.name, deps.now()), 'proxy activity read');
  } catch (error) {
    logger.warn({ pod: pod.name, err: errorMessage(error) }, 'proxy activity unreadable; reading it as Busy');
    proxy = null;
  }
  const scraped = seen.aggregate.signal;
  const signal = withProxyActivity(scraped, record.state.phase, record.state.lastTickAt, proxy);
  if (signal === scraped) return { ...seen, proxy, scraped };
  logger.debug({ pod: pod.name, proxy, scraped }, 'proxy traffic reads Busy');
  return { ...seen, proxy, scraped, aggregate: { ...seen.aggregate, signal } };
}

export function listedOf(list: PodList): readonly ListedPod[] {
  return list.kind === 'listed' ? list.pods : [];
}
