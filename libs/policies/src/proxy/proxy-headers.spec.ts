import { bearerToken, forwardableHeaders, type HeaderBag } from './proxy-headers';

describe(forwardableHeaders.name, () => {
  it.each<[string, HeaderBag, 'request' | 'response', Record<string, string | string[]>]>([
    [
      'drops hop-by-hop fields both ways',
      {
        connection: 'keep-alive',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        'transfer-encoding': 'chunked',
        upgrade: 'h2c',
        'content-type': 'application/json',
      },
      'response',
      { 'content-type': 'application/json' },
    ],
    [
      'drops the fields the Connection header names',
      { connection: 'close, X-Trace-Hop', 'x-trace-hop': '1', 'x-request-id': 'r1' },
      'request',
      { 'x-request-id': 'r1' },
    ],
    [
      "drops the client's token, the host and the body length towards the pod",
      {
        authorization: 'Bearer sk-client',
        host: 'proxy:8081',
        'content-length': '12',
        accept: 'text/event-stream',
        'openai-organization': 'org',
      },
      'request',
      { accept: 'text/event-stream', 'openai-organization': 'org' },
    ],
    [
      "keeps the pod's content-length and content type towards the client",
      { 'content-length': '12', 'content-type': 'text/event-stream', 'set-cookie': ['a=1', 'b=2'] },
      'response',
      { 'content-length': '12', 'content-type': 'text/event-stream', 'set-cookie': ['a=1', 'b=2'] },
    ],
    ['drops proxy credentials', { 'proxy-authorization': 'Basic x', 'x-a': '1' }, 'request', { 'x-a': '1' }],
    ...['connection', 'keep-alive', 'proxy-authenticate', 'proxy-connection', 'te', 'trailer', 'upgrade'].map(
      (hop): [string, HeaderBag, 'response', Record<string, string>] => [
        `drops ${hop} on its own, unnamed by Connection`,
        { [hop]: 'x', 'x-a': '1' },
        'response',
        { 'x-a': '1' },
      ],
    ),
    [
      "drops the client's Expect towards the pod, keeps it back",
      { expect: '100-continue', 'x-a': '1' },
      'request',
      { 'x-a': '1' },
    ],
    [
      'keeps the request-only fields towards the client',
      { expect: 'x', host: 'h' },
      'response',
      { expect: 'x', host: 'h' },
    ],
    ['skips a header Node left undefined', { 'x-gone': undefined, 'x-a': '1' }, 'request', { 'x-a': '1' }],
    [
      'reads a repeated Connection header given as a list',
      { connection: ['close', 'X-Hop-A'], 'x-hop-a': '1', 'x-hop-b': '2' },
      'response',
      { 'x-hop-b': '2' },
    ],
    [
      'forwards names lower-cased',
      { 'X-Request-Id': 'r1', 'Content-Type': 'application/json' },
      'response',
      { 'x-request-id': 'r1', 'content-type': 'application/json' },
    ],
  ])('%s', (_what, headers, direction, expected) => {
    expect(forwardableHeaders(headers, direction)).toEqual(expected);
  });
});

describe(bearerToken.name, () => {
  it.each<[string | undefined, string | null]>([
    [undefined, null],
    ['', null],
    ['Bearer sk-1', 'sk-1'],
    ['bearer   sk-1  ', 'sk-1'],
    [' \tBearer sk-1', 'sk-1'],
    ['NotBearer sk-1', null],
    ['Token Bearer sk-1', null],
    ['Basic dXNlcjpwdw==', null],
    ['Bearer', null],
    ['Bearer a b', null],
    ['sk-1', null],
  ])('%j → %j', (header, expected) => {
    expect(bearerToken(header)).toBe(expected);
  });
});
