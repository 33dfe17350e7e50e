import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * One server span per HTTP request, active while it is handled so its queue adds and RunPod calls join the
 * trace. Attributes: method, route pattern, status; never a header, query or body. No-op with tracing off.
 */
export function httpTracingMiddleware(): RequestHandler {
  const tracer = trace.getTracer('podwarden-http');
  return (request: Request, response: Response, next: NextFunction): void => {
    const span = tracer.startSpan(`${request.method}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': request.method },
    });
    response.on('finish', () => {
      const pattern: unknown = (request.route as { path?: unknown } | undefined)?.path;
      const route = typeof pattern === 'string' ? `${request.baseUrl}${pattern}` : 'unmatched';
      span.updateName(`${request.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': response.statusCode });
      if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(context.active(), span), next);
  };
}
