import fc from 'fast-check';
import type { PodConfig, PodwardenConfig } from './config-types';
import { parseConfig } from './parse-config';
import { findPod } from './pod-lookup';
import { findDuplicatePod } from './unique-pods-rule';

const parsed = parseConfig({}, null);
if (!parsed.ok) throw new Error(parsed.error);
const baseConfig: PodwardenConfig = parsed.config;

function pod(name: string, volumeId = ''): PodConfig {
  return { ...baseConfig.pods[0], name, volumeId };
}

describe(findDuplicatePod.name, () => {
  it('accepts distinct names and distinct volumes', () => {
    expect(findDuplicatePod([pod('qwen', 'v1'), pod('llama', 'v2')])).toBeNull();
  });

  it('names the later pod and the earlier one it duplicates', () => {
    expect(findDuplicatePod([pod('a', 'v1'), pod('Qwen', 'v2'), pod('qwen', 'v3')])).toBe(
      'pods[2].name "qwen" duplicates pods[1].name "Qwen" (names are case-insensitive)',
    );
  });

  it('treats volume ids case-sensitively, as RunPod does', () => {
    expect(findDuplicatePod([pod('a', 'vol'), pod('b', 'VOL')])).toBeNull();
  });

  // A route's {name} finds a pod through findPod; two names it cannot tell apart
  // must be refused here, and two it can must not be, whatever the alphabet.
  it.each([
    ['\u212a', 'k'], // KELVIN SIGN lower-cases to k
    ['\u00df', 'ss'], // sharp s upper-cases to SS but lower-cases to itself
    ['\u0130', 'i\u0307'], // DOTTED CAPITAL I lower-cases to i + combining dot
  ])('%j and %j are duplicates exactly when findPod confuses them', (first, second) => {
    const pods = [pod(first), pod(second)];
    const confused = findPod({ ...baseConfig, pods: [pods[0]] }, second) !== null;
    expect(findDuplicatePod(pods) !== null).toBe(confused);
  });

  it('refuses two names exactly when findPod could not tell them apart', () => {
    const name = fc.string({ unit: 'grapheme', maxLength: 4 });
    // The second name is often the first re-cased, so confusable pairs are common.
    const pair = fc
      .tuple(name, name, fc.constantFrom('upper', 'lower', 'other'))
      .map(([first, other, how]) => {
        const second = how === 'upper' ? first.toUpperCase() : how === 'lower' ? first.toLowerCase() : other;
        return [first, second] as const;
      });
    fc.assert(
      fc.property(pair, ([first, second]) => {
        const confused = findPod({ ...baseConfig, pods: [pod(first)] }, second) !== null;
        expect(findDuplicatePod([pod(first), pod(second)]) !== null).toBe(confused);
      }),
      { numRuns: 300 },
    );
  });
});
