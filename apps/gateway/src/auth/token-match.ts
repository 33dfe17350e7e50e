import { createHash, timingSafeEqual } from 'node:crypto';

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Constant-time token comparison. Both sides are hashed first so the buffers
 * always have the same length: neither the token's content nor its length
 * leaks through timing.
 */
export function tokensMatch(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}
