import { pathAfterName } from './proxy.controller';

describe(pathAfterName.name, () => {
  it.each([
    ['/qwen/v1/chat/completions', '/v1/chat/completions'],
    ['/qwen/v1/models?x=1', '/v1/models?x=1'],
    // Express matched the route case-insensitively; vLLM's routes are lower case.
    ['/qwen/V1/models', '/v1/models'],
    ['/Qwen/V1/chat/completions?stream=true', '/v1/chat/completions?stream=true'],
    // A name that itself contains "v1" is cut at its own end, not at the first "/v1/".
    ['/v1/v1/completions', '/v1/completions'],
    ['/a%2Fb/v1/embeddings', '/v1/embeddings'],
  ])('%s → %s', (url, path) => {
    expect(pathAfterName(url)).toBe(path);
  });
});
