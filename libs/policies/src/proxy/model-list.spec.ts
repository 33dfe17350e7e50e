import {
  decodeKeptList,
  encodeKeptList,
  isModelList,
  keptListAgeSeconds,
  MAX_MODEL_LIST_BYTES,
  type KeptModelList,
} from './model-list';

const VLLM_LIST = JSON.stringify({
  object: 'list',
  data: [
    {
      id: 'Qwen/Qwen2.5-32B-Instruct-AWQ',
      object: 'model',
      created: 1_760_000_000,
      owned_by: 'vllm',
      root: 'Qwen/Qwen2.5-32B-Instruct-AWQ',
      parent: null,
      max_model_len: 32768,
    },
  ],
});

describe(isModelList.name, () => {
  it.each<[string, string, boolean]>([
    ["vLLM's list", VLLM_LIST, true],
    [
      'two models',
      JSON.stringify({ object: 'list', data: [{ id: 'a' }, { id: 'b', object: 'model' }] }),
      true,
    ],
    ['an empty list: nothing to offer a client', JSON.stringify({ object: 'list', data: [] }), false],
    ['not JSON (an HTML error page)', '<html><title>502 Bad Gateway</title></html>', false],
    ['empty text', '', false],
    ['JSON null', 'null', false],
    ['a bare array', JSON.stringify([{ id: 'a' }]), false],
    ['no object field', JSON.stringify({ data: [{ id: 'a' }] }), false],
    ['another object kind', JSON.stringify({ object: 'model', data: [{ id: 'a' }] }), false],
    ['data not an array', JSON.stringify({ object: 'list', data: { id: 'a' } }), false],
    [
      'a model without an id',
      JSON.stringify({ object: 'list', data: [{ id: 'a' }, { object: 'model' }] }),
      false,
    ],
    ['an id that is not a string', JSON.stringify({ object: 'list', data: [{ id: 7 }] }), false],
    ['an empty id', JSON.stringify({ object: 'list', data: [{ id: '' }] }), false],
    ['a model that is not an object', JSON.stringify({ object: 'list', data: ['a'] }), false],
    ['a model that is an array', JSON.stringify({ object: 'list', data: [['a']] }), false],
    ['a model that is JSON null', JSON.stringify({ object: 'list', data: [{ id: 'a' }, null] }), false],
    ['an OpenAI error', JSON.stringify({ error: { message: 'x', type: 'y' } }), false],
  ])('%s → %j', (_what, body, expected) => {
    expect(isModelList(body)).toBe(expected);
  });
});

describe('MAX_MODEL_LIST_BYTES', () => {
  // The bound must keep every list a real vLLM serves: one base model with a hundred LoRA adapters.
  it('keeps a list of a hundred models in the shape vLLM serves them', () => {
    const entry = JSON.parse(VLLM_LIST).data[0] as Record<string, unknown>;
    const data = Array.from({ length: 100 }, (_, n) => ({
      ...entry,
      id: `adapter-${n}-of-qwen2.5-32b-instruct`,
    }));
    const body = JSON.stringify({ object: 'list', data });
    expect(isModelList(body)).toBe(true);
    expect(Buffer.byteLength(body)).toBeGreaterThan(10_000);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_MODEL_LIST_BYTES);
  });
});

describe(decodeKeptList.name, () => {
  const kept: KeptModelList = { body: VLLM_LIST, servedAt: 1_760_000_000_000 };

  it('reads back what encodeKeptList wrote, the body byte for byte', () => {
    expect(decodeKeptList(encodeKeptList(kept))).toEqual(kept);
  });

  it.each<[string, string | null]>([
    ['nothing stored', null],
    ['not JSON', 'garbage'],
    ['JSON of another shape', JSON.stringify([VLLM_LIST])],
    ['no body', JSON.stringify({ servedAt: 1 })],
    ['a body that is not text', JSON.stringify({ servedAt: 1, body: { object: 'list' } })],
    ['a body that is not a model list', JSON.stringify({ servedAt: 1, body: '{"object":"list","data":[]}' })],
    ['no time', JSON.stringify({ body: VLLM_LIST })],
    ['a time that is text', JSON.stringify({ servedAt: '1', body: VLLM_LIST })],
    ['a negative time', JSON.stringify({ servedAt: -1, body: VLLM_LIST })],
    ['a time that is not finite', `{"servedAt":1e999,"body":${JSON.stringify(VLLM_LIST)}}`],
  ])('%s → null', (_what, stored) => {
    expect(decodeKeptList(stored)).toBeNull();
  });

  it('a time of 0 is a time', () => {
    expect(decodeKeptList(encodeKeptList({ body: VLLM_LIST, servedAt: 0 }))).toEqual({
      body: VLLM_LIST,
      servedAt: 0,
    });
  });
});

describe(keptListAgeSeconds.name, () => {
  const servedAt = 1_000_000;
  it.each<[string, number, number]>([
    ['served now', servedAt, 0],
    ['999 ms ago: still 0', servedAt + 999, 0],
    ['1 s ago', servedAt + 1_000, 1],
    ['a day ago', servedAt + 86_400_000, 86_400],
    ['served "later" (another clock): 0, never negative', servedAt - 5_000, 0],
  ])('%s → %d', (_what, now, expected) => {
    expect(keptListAgeSeconds({ body: VLLM_LIST, servedAt }, now)).toBe(expected);
  });
});
