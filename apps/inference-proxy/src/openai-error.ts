import type { Response } from 'express';

/**
 * Errors in the shape OpenAI clients parse (`{ error: { message, type, param, code } }`),
 * so an SDK shows the reason instead of a parse failure; extra top-level
 * fields (pod, phase, attemptId…) say more to whoever reads the body.
 */
export interface ProxyError {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly extra?: Readonly<Record<string, unknown>>;
}

export function sendProxyError(res: Response, error: ProxyError): void {
  if (res.headersSent || res.destroyed) return;
  res.status(error.status);
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  res.json({
    error: { message: error.message, type: error.type, param: null, code: error.code },
    ...(error.extra ?? {}),
  });
}
