import { createInDoubt } from './create-in-doubt';

describe('createInDoubt', () => {
  it.each<[number, string | null, boolean, string]>([
    [0, null, true, 'no answer (timeout, reset)'],
    [0, 'pod-1', true, 'no answer even with an id seen'],
    [500, null, true, 'server error'],
    [503, 'pod-1', true, 'server error naming a pod'],
    [599, null, true, 'last 5xx'],
    [200, null, true, 'success without an id'],
    [201, '', true, 'success with an empty id'],
    [200, 'pod-1', false, 'success with an id'],
    [299, 'pod-1', false, 'last 2xx with an id'],
    [400, null, false, 'refused: nothing placed'],
    [402, null, false, 'no funds: nothing placed'],
    [429, null, false, 'throttled: nothing placed'],
    [499, null, false, 'last 4xx'],
    [302, null, false, 'a redirect is not a success'],
    [300, null, false, 'the first 3xx is not a success'],
  ])('status %i with pod id %p → in doubt %p (%s)', (status, podId, expected, _why) => {
    expect(createInDoubt(status, podId)).toBe(expected);
  });
});
