import { parsePrometheusText } from './prometheus-text';
import { activityFromSamples } from './vllm-activity';

const activityOf = (text: string) => activityFromSamples(parsePrometheusText(text));

describe('activityFromSamples', () => {
  it('sums running and waiting over every label series', () => {
    const text = [
      'vllm:num_requests_running{model_name="a"} 1',
      'vllm:num_requests_running{model_name="b"} 2',
      'vllm:num_requests_waiting{model_name="a"} 3',
      'vllm:num_requests_waiting{model_name="b"} 0',
      'vllm:request_success_total{finished_reason="stop",model_name="a"} 1',
    ].join('\n');
    expect(activityOf(text)).toEqual({ active: 6, completed: 1 });
  });

  it('sums every work counter family over every series', () => {
    const text = [
      'vllm:num_requests_running{model_name="a"} 0',
      'vllm:request_success_total{finished_reason="stop",model_name="a"} 12',
      'vllm:request_success_total{finished_reason="length",model_name="a"} 3',
      'vllm:generation_tokens_total{model_name="a"} 3456',
      'vllm:prompt_tokens_total{model_name="a"} 789',
    ].join('\n');
    expect(activityOf(text)).toEqual({ active: 0, completed: 12 + 3 + 3456 + 789 });
  });

  it('ignores _created timestamps, which would otherwise swamp the counter sum', () => {
    const text = [
      'vllm:num_requests_running 0',
      'vllm:request_success_total 5',
      'vllm:request_success_created 1.7e+09',
      'vllm:request_success_total_created 1.7e+09',
      'vllm:generation_tokens_created 1.7e+09',
    ].join('\n');
    expect(activityOf(text)).toEqual({ active: 0, completed: 5 });
  });

  it("ignores the HTTP instrumentator's counter, which counts model listings and scrapes as requests", () => {
    const before = [
      'vllm:num_requests_running{model_name="a"} 0',
      'vllm:request_success_total{finished_reason="stop",model_name="a"} 4',
      'http_requests_total{handler="/v1/models",method="GET",status="2xx"} 10',
      'http_requests_total{handler="/metrics",method="GET",status="2xx"} 3',
    ];
    const after = [
      ...before.slice(0, 2),
      before[2].replace('} 10', '} 250'),
      before[3].replace('} 3', '} 4'),
    ];
    expect(activityOf(before.join('\n'))).toEqual({ active: 0, completed: 4 });
    expect(activityOf(after.join('\n'))).toEqual({ active: 0, completed: 4 });
  });

  it('reports completed as null, never 0, when only the gauges are exposed', () => {
    expect(activityOf('vllm:num_requests_running 0\nvllm:num_requests_waiting 0')).toEqual({
      active: 0,
      completed: null,
    });
  });

  it('keeps a counter that is genuinely 0 as 0', () => {
    expect(activityOf('vllm:num_requests_running 0\nvllm:prompt_tokens_total 0')).toEqual({
      active: 0,
      completed: 0,
    });
  });

  it('reads counters without gauges as zero requests in flight', () => {
    expect(activityOf('vllm:generation_tokens_total 7')).toEqual({ active: 0, completed: 7 });
  });

  it('skips NaN and infinite samples so they cannot poison a sum', () => {
    const text = 'vllm:num_requests_running NaN\nvllm:num_requests_waiting 1\nvllm:prompt_tokens_total +Inf';
    expect(activityOf(text)).toEqual({ active: 1, completed: null });
  });

  it.each([
    ['an empty body', ''],
    ['an HTML page', '<html><body>Welcome</body></html>'],
    ['unrelated metrics', 'process_cpu_seconds_total 12\npython_info{version="3.12"} 1'],
  ])('is null for %s, which is not a vLLM exposition', (_case, text) => {
    expect(activityOf(text)).toBeNull();
  });
});
