import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { GatewayMetrics } from './gateway-metrics';

/**
 * Counts every answer, also the ones a guard or the exception filter wrote.
 * The label is the matched route pattern, never the raw path, so the series
 * stay bounded whatever URLs callers send.
 */
export function httpMetricsMiddleware(metrics: GatewayMetrics): RequestHandler {
  return (request: Request, response: Response, next: NextFunction): void => {
    response.on('finish', () => {
      metrics.httpRequests.inc({
        method: request.method,
        route: routeLabel(request),
        status: String(response.statusCode),
      });
    });
    next();
  };
}

function routeLabel(request: Request): string {
  const pattern: unknown = (request.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === 'string') return `${request.baseUrl}${pattern}`;
  if (request.originalUrl.startsWith('/admin/queues')) return '/admin/queues';
  if (request.originalUrl.startsWith('/docs')) return '/docs';
  return 'unmatched';
}
