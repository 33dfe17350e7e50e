import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken, type PodConfig } from '@podwarden/policies';

export type AuthVerdict = 'ok' | 'unconfigured' | 'denied';

/**
 * The client token of one pod: `Authorization: Bearer <token>`, as every
 * OpenAI client sends its API key. Compared in constant time over digests so
 * neither the content nor the length leaks; no token configured means no access.
 */
export function checkClientToken(pod: PodConfig, authorization: string | undefined): AuthVerdict {
  if (pod.inferenceToken === null) return 'unconfigured';
  const given = bearerToken(authorization);
  if (given === null) return 'denied';
  return timingSafeEqual(digest(given), digest(pod.inferenceToken)) ? 'ok' : 'denied';
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
