import { float, renderVllmMetrics } from './metrics-exposition';
import { parseExposition, sampleValue } from './testing/sim-harness';

describe('Prometheus float format (prometheus_client style)', () => {
  it.each([
    [0, '0.0'],
    [12, '12.0'],
    [0.25, '0.25'],
    [999999, '999999.0'],
    [1000000, '1e+06'],
    [4123451392, '4.123451392e+09'],
    [1796014791.421, '1.796014791421e+09'],
  ])('%p is written %s', (value, text) => {
    expect(float(value)).toBe(text);
    expect(Number(text)).toBe(value);
  });
});

describe(renderVllmMetrics.name, () => {
  const snapshot = {
    running: 2,
    waiting: 1,
    counters: { success: { stop: 1234567, length: 2, abort: 0 }, promptTokens: 10, generationTokens: 20 },
  };
  const base = {
    modelName: 'org/model "quoted"',
    snapshot,
    runningFloor: 0,
    withCounters: true,
    createdSamples: true,
    processStartWallSeconds: 1796014791.5,
    scrapesServed: 3,
    modelListsServed: 0,
  };

  it('escapes label values and keeps large counters readable as numbers', () => {
    const { samples } = parseExposition(renderVllmMetrics(base));
    expect(sampleValue(samples, 'vllm:request_success_total', { finished_reason: 'stop' })).toBe(1234567);
    expect(samples.find((s) => s.name === 'vllm:num_requests_running')?.labels.model_name).toBe(
      'org/model \\"quoted\\"',
    );
  });

  it('the phantom floor lifts the running gauge but never lowers it', () => {
    const lifted = parseExposition(
      renderVllmMetrics({ ...base, runningFloor: 1, snapshot: { ...snapshot, running: 0 } }),
    );
    expect(sampleValue(lifted.samples, 'vllm:num_requests_running')).toBe(1);
    const busy = parseExposition(renderVllmMetrics({ ...base, runningFloor: 1 }));
    expect(sampleValue(busy.samples, 'vllm:num_requests_running')).toBe(2);
  });

  it('every sample belongs to a family declared with # TYPE under its exact name', () => {
    const { samples, types } = parseExposition(renderVllmMetrics(base));
    expect(samples.filter((sample) => !types.has(sample.name))).toEqual([]);
  });
});
