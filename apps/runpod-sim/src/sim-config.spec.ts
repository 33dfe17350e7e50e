import { DEFAULT_SCENARIO } from './default-scenario';
import { loadSimConfig } from './sim-config';

const noFile = (): string => {
  throw new Error('ENOENT: no such file');
};

describe(loadSimConfig.name, () => {
  it('defaults: port 8090 on 127.0.0.1, no key, the default scenario at speed 1', () => {
    const result = loadSimConfig({}, noFile);
    expect(result).toEqual({
      ok: true,
      config: { port: 8090, host: '127.0.0.1', apiKey: null, scenario: DEFAULT_SCENARIO, scenarioPath: null },
    });
  });

  it('reads SIM_PORT, SIM_HOST, SIM_API_KEY and SIM_SPEED', () => {
    const result = loadSimConfig(
      { SIM_PORT: '0', SIM_HOST: '0.0.0.0', SIM_API_KEY: 'k', SIM_SPEED: '60' },
      noFile,
    );
    expect(result.ok && result.config).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      apiKey: 'k',
      scenario: { speed: 60 },
    });
  });

  it('a scenario file patches the default scenario, and SIM_SPEED wins over its speed', () => {
    const file = JSON.stringify({ speed: 10, listOrder: 'reverse', timings: { modelLoadMs: 5 } });
    const result = loadSimConfig({ SIM_SCENARIO: '/s.json', SIM_SPEED: '2' }, () => file);
    expect(result.ok && result.config.scenario).toMatchObject({
      speed: 2,
      listOrder: 'reverse',
      timings: { ...DEFAULT_SCENARIO.timings, modelLoadMs: 5 },
    });
  });

  it.each([
    ['SIM_PORT not a number', { SIM_PORT: 'eighty' }, /SIM_PORT="eighty"/],
    ['SIM_PORT out of range', { SIM_PORT: '70000' }, /SIM_PORT/],
    ['SIM_SPEED zero', { SIM_SPEED: '0' }, /SIM_SPEED="0"/],
    ['SIM_SPEED with a comma', { SIM_SPEED: '1,5' }, /SIM_SPEED="1,5"/],
    ['SIM_SPEED negative', { SIM_SPEED: '-2' }, /SIM_SPEED/],
    [
      'SIM_SCENARIO unreadable',
      { SIM_SCENARIO: '/missing.json' },
      /SIM_SCENARIO=\/missing.json cannot be read/,
    ],
  ])('%s is one clear error', (_name, env, message) => {
    const result = loadSimConfig(env, noFile);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatch(message);
      expect(result.error).not.toContain('\n');
    }
  });

  it.each([
    ['not JSON', '{ nope', /is not valid JSON/],
    ['an unknown field', '{ "colour": "red" }', /scenario: unknown field\(s\) colour/],
    [
      'a bad timing',
      '{ "timings": { "modelLoadMs": "slow" } }',
      /scenario.timings.modelLoadMs: expected a finite number/,
    ],
    [
      'a bad catalog entry',
      '{ "catalog": [ { "id": "x", "dataCenters": [ { "id": "EU", "availability": "LOTS" } ] } ] }',
      /scenario.catalog\[0\].dataCenters\[0\].availability/,
    ],
    [
      'duplicate volume ids',
      '{ "volumes": [ { "id": "v", "dataCenterId": "A" }, { "id": "v", "dataCenterId": "B" } ] }',
      /duplicate id v/,
    ],
  ])('a scenario file with %s names the problem', (_name, file, message) => {
    const result = loadSimConfig({ SIM_SCENARIO: '/s.json' }, () => file);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });
});
