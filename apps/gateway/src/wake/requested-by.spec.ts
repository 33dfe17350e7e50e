import { DEFAULT_REQUESTER, requestedBy } from './requested-by';

describe(requestedBy.name, () => {
  it.each([
    ['no header is the gateway', undefined, DEFAULT_REQUESTER],
    ['a plain name is kept', 'rig-cockpit', 'rig-cockpit'],
    ['markup and control characters are dropped', 'rig-e\n<b>', 'rig-eb'],
    ['only unsafe characters fall back to the gateway', '<>{}', DEFAULT_REQUESTER],
    ['blank falls back to the gateway', '   ', DEFAULT_REQUESTER],
    ['long values are cut to 64 characters', 'x'.repeat(100), 'x'.repeat(64)],
  ])('%s', (_rule, header, requester) => {
    expect(requestedBy(header)).toBe(requester);
  });
});
