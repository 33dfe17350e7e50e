import {
  API_ORIGIN,
  CONTROL_PLANE_HEADERS,
  JSON_HEADERS,
  mockRunPod,
  onlyCall,
  type MockRunPod,
} from './testing/mock-runpod-harness';

const CATALOG_PATH = '/v2/catalog/gpus?include=AVAILABILITY&product=POD';

describe('RunPodClient.getCatalog', () => {
  let mock: MockRunPod;
  beforeEach(() => {
    mock = mockRunPod();
  });
  afterEach(() => mock.finish());

  const answer = (status: number, body: unknown) =>
    mock.api
      .intercept({ method: 'GET', path: CATALOG_PATH })
      .reply(status, body as object, { headers: JSON_HEADERS });

  it('sends exactly GET {base}/catalog/gpus?include=AVAILABILITY&product=POD (product is required with include)', async () => {
    answer(200, { gpus: [] });
    await mock.client.getCatalog();
    expect(onlyCall(mock)).toEqual({
      method: 'GET',
      url: `${API_ORIGIN}${CATALOG_PATH}`,
      headers: CONTROL_PLANE_HEADERS,
      body: undefined,
    });
  });

  it('maps a full catalog entry', async () => {
    answer(200, {
      gpus: [
        {
          id: 'NVIDIA A100 80GB PCIe',
          displayName: 'A100 PCIe',
          memory: 80,
          price: { secure: 1.59, community: 1.19 },
          availability: 'HIGH',
          dataCenters: [
            { id: 'EU-RO-1', availability: 'MEDIUM' },
            { id: 'US-TX-3', availability: 'LOW' },
          ],
        },
      ],
    });
    expect(await mock.client.getCatalog()).toEqual([
      {
        id: 'NVIDIA A100 80GB PCIe',
        securePrice: 1.59,
        availability: 'HIGH',
        dataCenters: [
          { id: 'EU-RO-1', availability: 'MEDIUM' },
          { id: 'US-TX-3', availability: 'LOW' },
        ],
        vramGb: 80,
      },
    ]);
  });

  it.each([
    ['memory', { memory: 48 }, 48],
    ['memoryInGb (alias)', { memoryInGb: 24 }, 24],
    ['memory over memoryInGb', { memory: 48, memoryInGb: 24 }, 48],
    ['absent memory as null', {}, null],
    ['null memory as null', { memory: null }, null],
    ['non-number memory as null', { memory: '80' }, null],
  ])('reads VRAM from %s', async (_case, fields, expected) => {
    answer(200, { gpus: [{ id: 'g', ...fields }] });
    expect((await mock.client.getCatalog())[0].vramGb).toBe(expected);
  });

  it.each([
    ['absent price', {}, null],
    ['price without secure', { price: { community: 0.5 } }, null],
    ['null secure price', { price: { secure: null } }, null],
    ['string secure price', { price: { secure: '0.5' } }, null],
    ['numeric secure price', { price: { secure: 0.79 } }, 0.79],
    ['a free GPU', { price: { secure: 0 } }, 0],
  ])('reads the secure price from %s', async (_case, fields, expected) => {
    answer(200, { gpus: [{ id: 'g', ...fields }] });
    expect((await mock.client.getCatalog())[0].securePrice).toBe(expected);
  });

  it.each([
    [undefined, 'NONE'],
    ['NONE', 'NONE'],
    ['LOW', 'LOW'],
    ['MEDIUM', 'MEDIUM'],
    ['HIGH', 'HIGH'],
    ['VERY_HIGH', 'NONE'],
    [3, 'NONE'],
  ])('reads availability %p as %s', async (wire, expected) => {
    answer(200, { gpus: [{ id: 'g', availability: wire, dataCenters: [{ id: 'dc', availability: wire }] }] });
    const [entry] = await mock.client.getCatalog();
    expect(entry.availability).toBe(expected);
    expect(entry.dataCenters).toEqual([{ id: 'dc', availability: expected }]);
  });

  it('reads absent data centers as none and skips data centers without an id', async () => {
    answer(200, {
      gpus: [
        { id: 'a' },
        { id: 'b', dataCenters: [{ availability: 'HIGH' }, { id: 'EU-RO-1' }, 'x', null] },
        { id: 'c', dataCenters: 'EU-RO-1' },
      ],
    });
    expect((await mock.client.getCatalog()).map((e) => [e.id, e.dataCenters])).toEqual([
      ['a', []],
      ['b', [{ id: 'EU-RO-1', availability: 'NONE' }]],
      ['c', []],
    ]);
  });

  it('skips entries without an id', async () => {
    answer(200, { gpus: [{ memory: 80 }, { id: '' }, { id: 7 }, null, { id: 'kept' }] });
    expect((await mock.client.getCatalog()).map((e) => e.id)).toEqual(['kept']);
  });

  it.each([
    ['http 500', 500, { gpus: [{ id: 'g' }] }],
    ['http 401', 401, { gpus: [{ id: 'g' }] }],
    ['an unparseable 200', 200, 'nope{'],
    ['a 200 without gpus', 200, { items: [{ id: 'g' }] }],
    ['a 200 whose gpus is not an array', 200, { gpus: { id: 'g' } }],
  ])('is empty on %s: no candidates means nothing is billed', async (_case, status, body) => {
    answer(status, body);
    expect(await mock.client.getCatalog()).toEqual([]);
  });

  it('is empty on a transport error', async () => {
    mock.api.intercept({ method: 'GET', path: CATALOG_PATH }).replyWithError(new Error('ECONNREFUSED'));
    expect(await mock.client.getCatalog()).toEqual([]);
  });
});
