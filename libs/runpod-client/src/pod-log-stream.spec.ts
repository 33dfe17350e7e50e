import { SseDataParser, logLineOf } from './pod-log-stream';

describe('server-sent events of the pod logs', () => {
  it('joins multi-line data, dispatches on a blank line, skips other fields and comments, survives split chunks', () => {
    const parser = new SseDataParser();
    expect(parser.push('id: 1\ndata: {"a":')).toEqual([]);
    expect(parser.push('1}\n\n: comment\n\nevent: x\ndata: one\r\ndata: two\r\n\r\n')).toEqual([
      '{"a":1}',
      'one\ntwo',
    ]);
  });

  it.each<[string, unknown]>([
    [
      '{"source":"system","line":"pulling","ts":"2026-12-01T10:00:00Z"}',
      { source: 'system', line: 'pulling', ts: Date.parse('2026-12-01T10:00:00Z') },
    ],
    ['{"source":"container","line":"x","ts":"garbage"}', { source: 'container', line: 'x', ts: null }],
    ['{"source":"other","line":"x"}', null],
    ['{"source":"system"}', null],
    ['nope', null],
  ])('%s', (data, expected) => {
    expect(logLineOf(data)).toEqual(expected);
  });
});
