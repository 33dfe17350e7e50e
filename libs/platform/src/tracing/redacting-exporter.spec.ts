import { ExportResultCode } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { REDACTED, RedactingSpanExporter } from './redacting-exporter';

const KEY = 'rk-secret-api-key-1234';
const TOKEN = 'op-token-5678';

function exportedThrough(build: (span: import('@opentelemetry/api').Span) => void) {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(new RedactingSpanExporter(memory, [KEY, TOKEN, null, '']))],
  });
  const span = provider.getTracer('spec').startSpan(`call with ${KEY}`);
  build(span);
  span.end();
  return memory.getFinishedSpans()[0];
}

describe(RedactingSpanExporter.name, () => {
  it('replaces attributes named like a credential, whatever their value', () => {
    const span = exportedThrough((s) =>
      s.setAttributes({
        'http.request.header.authorization': 'Bearer anything',
        'http.request.header.x-rig-operator-token': 'whatever',
        'runpod.api_key': 'x',
        'db.password': 'y',
        'http.route': '/api/pods/:name/start',
      }),
    );
    expect(span.attributes).toEqual({
      'http.request.header.authorization': REDACTED,
      'http.request.header.x-rig-operator-token': REDACTED,
      'runpod.api_key': REDACTED,
      'db.password': REDACTED,
      'http.route': '/api/pods/:name/start',
    });
  });

  it('removes a known secret from any value, array item, event attribute and the span name', () => {
    const span = exportedThrough((s) => {
      s.setAttribute('url.full', `https://api.test/v2/pods?key=${KEY}`);
      s.setAttribute('list', [`a ${TOKEN}`, 'b']);
      s.addEvent('exception', { 'exception.message': `refused ${TOKEN}` });
    });
    expect(span.name).toBe(`call with ${REDACTED}`);
    expect(span.attributes['url.full']).toBe(`https://api.test/v2/pods?key=${REDACTED}`);
    expect(span.attributes.list).toEqual([`a ${REDACTED}`, 'b']);
    expect(span.events[0].attributes).toEqual({ 'exception.message': `refused ${REDACTED}` });
    expect(JSON.stringify({ a: span.attributes, e: span.events })).not.toMatch(/rk-secret|op-token/);
  });

  it('passes the result of the wrapped exporter through', (done) => {
    const exporter = new RedactingSpanExporter(new InMemorySpanExporter(), []);
    exporter.export([], (result) => {
      expect(result.code).toBe(ExportResultCode.SUCCESS);
      done();
    });
  });
});
