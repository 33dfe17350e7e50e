import type { VolumeLookup } from '../domain/pod';
import { tickLaneOf, type TickLane } from './tick-lane';

describe(tickLaneOf.name, () => {
  it.each<[string, VolumeLookup, TickLane]>([
    ['the list shows nothing on the volume', { kind: 'not-found' }, 'quiet'],
    [
      'a pod on the volume (scrape, maybe observe or stop)',
      { kind: 'found', podIds: ['a'] },
      'control-plane',
    ],
    ['several pods on the volume', { kind: 'found', podIds: ['a', 'b'] }, 'control-plane'],
    [
      'an unreadable list (the cap may stop what was seen up)',
      { kind: 'unreadable', reason: 'HTTP 500' },
      'control-plane',
    ],
  ])('%s', (_rule, lookup, lane) => {
    expect(tickLaneOf(lookup)).toBe(lane);
  });
});
