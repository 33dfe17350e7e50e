import { JsonBodyPipe, MAX_BODY_DEPTH } from './json-body.pipe';
import { ProblemException } from './problem';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

describe(JsonBodyPipe.name, () => {
  const sut = new JsonBodyPipe();
  const body = { type: 'body' as const };

  it.each([
    ['a 10,000-deep array', nested(10_000), 'maxDepth'],
    ['one level past the limit', nested(MAX_BODY_DEPTH + 1), 'maxDepth'],
    ['a __proto__ key', JSON.parse('{"minutes":5,"__proto__":{"admin":true}}'), 'prototypeKey'],
    ['a constructor key deep down', { a: { b: [{ constructor: {} }] } }, 'prototypeKey'],
    ['a prototype key', { prototype: 1 }, 'prototypeKey'],
  ])('refuses %s with a 400 bad-body problem', (_what, value, rule) => {
    let thrown: unknown;
    try {
      sut.transform(value, body);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProblemException);
    expect((thrown as ProblemException).problem).toMatchObject({
      status: 400,
      type: 'urn:podwarden:problem:bad-body',
      field: 'body',
      violations: [{ field: 'body', rules: [rule] }],
    });
  });

  it.each([
    ['a flat DTO', { minutes: 5 }],
    ['nesting just inside the limit', nested(MAX_BODY_DEPTH - 1)],
    ['a scalar', 5],
    ['null', null],
    ['a key that merely contains proto', { protocol: 'x', my__proto__: 1 }],
  ])('passes %s through unchanged', (_what, value) => {
    expect(sut.transform(value, body)).toBe(value);
  });

  it('leaves params and queries to their own pipes', () => {
    const hostile = JSON.parse('{"__proto__":1}') as unknown;
    expect(sut.transform(hostile, { type: 'query' })).toBe(hostile);
    expect(sut.transform(hostile, { type: 'param' })).toBe(hostile);
  });
});
