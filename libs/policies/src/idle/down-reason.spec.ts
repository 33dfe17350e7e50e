import { downReasonOf } from './down-reason';
import type { StopReason } from './idle-phase';
import type { PendingStop } from './stop-confirmation';

function pending(trigger: string, confirmedAt: number | null = null): PendingStop {
  return { podId: 'p1', trigger, stoppedAt: 1_000, ticksWaited: 0, restops: 0, confirmedAt };
}

describe('downReasonOf', () => {
  it.each<[string, StopReason | null, PendingStop[], string | null]>([
    ['the tick’s own idle stop', 'idle', [], 'idle'],
    ['its own stop wins over an operator’s pending one', 'runtime-cap', [pending('manual')], 'runtime-cap'],
    ['an operator’s stop not yet seen land', null, [pending('manual')], 'manual'],
    ['an operator’s stop already confirmed explains nothing new', null, [pending('manual', 2_000)], null],
    ['a pending stop of another trigger', null, [pending('idle')], null],
    ['a manual one among others', null, [pending('idle'), pending('manual')], 'manual'],
    ['nothing pending: the pod went down on its own', null, [], null],
  ])('%s', (_name, own, entries, expected) => {
    expect(downReasonOf(own, entries)).toBe(expected);
  });
});
