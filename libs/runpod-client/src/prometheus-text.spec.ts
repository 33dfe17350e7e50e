import { parsePrometheusText, parseSampleValue } from './prometheus-text';

describe('parsePrometheusText', () => {
  it('skips HELP, TYPE, comments and blank lines and reads plain samples', () => {
    const text = [
      '# HELP vllm:num_requests_running Number of requests currently running.',
      '# TYPE vllm:num_requests_running gauge',
      '# a free comment',
      '',
      '   ',
      'vllm:num_requests_running 2',
    ].join('\n');
    expect(parsePrometheusText(text)).toEqual([{ name: 'vllm:num_requests_running', labels: {}, value: 2 }]);
  });

  it('reads label values with escaped quotes, backslashes and newlines', () => {
    const text = 'm{a="say \\"hi\\"",b="C:\\\\dir",c="line1\\nline2"} 1\n';
    expect(parsePrometheusText(text)).toEqual([
      { name: 'm', labels: { a: 'say "hi"', b: 'C:\\dir', c: 'line1\nline2' }, value: 1 },
    ]);
  });

  it('keeps commas, braces and spaces inside quoted label values', () => {
    const text = 'm{model_name="a, b} c",x="{y=1}"} 3';
    expect(parsePrometheusText(text)).toEqual([
      { name: 'm', labels: { model_name: 'a, b} c', x: '{y=1}' }, value: 3 },
    ]);
  });

  it('accepts a trailing comma, spaces around labels and an empty label set', () => {
    expect(parsePrometheusText('m{ a = "1" , b="2", } 4\nn{} 5')).toEqual([
      { name: 'm', labels: { a: '1', b: '2' }, value: 4 },
      { name: 'n', labels: {}, value: 5 },
    ]);
  });

  it('ignores an optional timestamp (integer or float) and an OpenMetrics exemplar', () => {
    expect(
      parsePrometheusText(
        'a 1 1700000000000\nb{x="y"} 2 -5\nc 3 1700000000.123\nd_total 4 # {trace_id="abc"} 1.0',
      ),
    ).toEqual([
      { name: 'a', labels: {}, value: 1 },
      { name: 'b', labels: { x: 'y' }, value: 2 },
      { name: 'c', labels: {}, value: 3 },
      { name: 'd_total', labels: {}, value: 4 },
    ]);
  });

  it('handles CRLF and lone CR line endings', () => {
    expect(parsePrometheusText('# TYPE a gauge\r\na 1\r\nb 2\rc 3\r\n').map((s) => s.value)).toEqual([
      1, 2, 3,
    ]);
  });

  it('reads +Inf, -Inf, NaN and exponents', () => {
    const samples = parsePrometheusText(
      'le{le="+Inf"} +Inf\nneg -Inf\nnan NaN\nexp 1.5e+03\nsmall 2E-2\nplain -0.5\nnoint .5',
    );
    expect(samples.map((s) => [s.name, s.value])).toEqual([
      ['le', Number.POSITIVE_INFINITY],
      ['neg', Number.NEGATIVE_INFINITY],
      ['nan', Number.NaN],
      ['exp', 1500],
      ['small', 0.02],
      ['plain', -0.5],
      ['noint', 0.5],
    ]);
    expect(samples[0].labels).toEqual({ le: '+Inf' });
  });

  it.each([
    ['unterminated label value', 'm{a="open} 1'],
    ['missing value', 'm{a="b"}'],
    ['name only', 'lonely'],
    ['non-numeric value', 'm abc'],
    ['too many fields', 'm 1 2 3'],
    ['non-numeric timestamp', 'm 1 yesterday'],
    ['bad metric name start', '1m 1'],
    ['bad character in name', 'm-x 1'],
    ['unquoted label value', 'm{a=b} 1'],
    ['missing equals', 'm{a"b"} 1'],
    ['duplicate label', 'm{a="1",a="2"} 1'],
    ['missing separator between labels', 'm{a="1" b="2"} 1'],
    ['dangling backslash', 'm{a="x\\'],
    ['hex is not a Prometheus float', 'm 0x10'],
  ])('drops a malformed line (%s) and keeps its neighbours', (_rule, bad) => {
    expect(parsePrometheusText(`before 1\n${bad}\nafter 2`)).toEqual([
      { name: 'before', labels: {}, value: 1 },
      { name: 'after', labels: {}, value: 2 },
    ]);
  });

  it('keeps an unknown escape verbatim rather than dropping the sample', () => {
    expect(parsePrometheusText('m{a="x\\ty"} 1')).toEqual([{ name: 'm', labels: { a: 'x\\ty' }, value: 1 }]);
  });

  it('keeps a label called __proto__ as an ordinary label', () => {
    const [sample] = parsePrometheusText('m{__proto__="x"} 1');
    expect(Object.keys(sample.labels)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(sample.labels)).toBe(Object.prototype);
  });

  it('never throws, whatever the input', () => {
    const junk = ['', '{', '}', '"', '\\', 'a{', 'a{b', 'a{b=', 'a{b="', '\u0000\u0001', '#', '# TYPE'].join(
      '\n',
    );
    expect(() => parsePrometheusText(junk)).not.toThrow();
    expect(parsePrometheusText(junk)).toEqual([]);
  });
});

describe('parseSampleValue', () => {
  it.each([
    ['0', 0],
    ['42', 42],
    ['-3.25', -3.25],
    ['1e3', 1000],
    ['1.5e+03', 1500],
    ['+Inf', Number.POSITIVE_INFINITY],
    ['inf', Number.POSITIVE_INFINITY],
    ['-Inf', Number.NEGATIVE_INFINITY],
  ])('reads %s as %s', (token, expected) => {
    expect(parseSampleValue(token)).toBe(expected);
  });

  it('reads NaN as NaN', () => {
    expect(parseSampleValue('NaN')).toBeNaN();
  });

  it.each(['', 'abc', '1.2.3', '1e', '--1', 'Infinityx'])('rejects %p', (token) => {
    expect(parseSampleValue(token)).toBeNull();
  });
});
