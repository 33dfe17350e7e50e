import type { NextFunction, Request, Response } from 'express';
import type { ConsoleAsset } from './console-assets';

/**
 * Scripts and styles only from the gateway itself, no inline script, no
 * frames, no plugins; fetch and EventSource only to the gateway.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Serves the console's few files at `/` and `/console/*`; every other path goes on to Nest. */
export function consoleMiddleware(assets: ReadonlyMap<string, ConsoleAsset>) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const asset =
      request.method === 'GET' || request.method === 'HEAD' ? assets.get(request.path) : undefined;
    if (asset === undefined) return next();
    response.status(200);
    response.setHeader('Content-Type', asset.contentType);
    response.setHeader('Content-Security-Policy', CONSOLE_CSP);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Referrer-Policy', 'no-referrer');
    response.setHeader('Cache-Control', 'no-cache');
    response.end(request.method === 'HEAD' ? undefined : asset.body);
  };
}
