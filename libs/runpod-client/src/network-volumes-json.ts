import { z } from 'zod';
import { nonBlankText, notNull } from './json-reading';

const mountedVolumeId = z
  .object({ volumeId: nonBlankText })
  .transform((mount) => mount.volumeId)
  .catch(null);

/** The network volumes a pod object mounts (`mounts.network[].volumeId`), as the list and the pod read both carry them. */
export const networkVolumeIds = z
  .object({ network: z.array(mountedVolumeId) })
  .transform((mounts) => mounts.network.filter(notNull))
  .catch(() => []);
