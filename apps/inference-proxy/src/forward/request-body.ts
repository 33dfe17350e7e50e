import type { IncomingMessage } from 'node:http';

/** Larger than any chat or completion request; a body past it is refused with 413 before any wake. */
export const MAX_REQUEST_BODY_BYTES = 16 * 1024 * 1024;

export type BodyRead =
  { readonly ok: true; readonly body: Buffer } | { readonly ok: false; readonly tooLarge: boolean };

/**
 * The whole request body. It is read before a hold so a held request keeps
 * nothing open but its response, and forwarded as one buffer once the pod is ready.
 */
export function readRequestBody(req: IncomingMessage, limit = MAX_REQUEST_BODY_BYTES): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (read: BodyRead): void => {
      if (settled) return;
      settled = true;
      resolve(read);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        settle({ ok: false, tooLarge: true });
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => settle({ ok: true, body: Buffer.concat(chunks) }));
    req.on('error', () => settle({ ok: false, tooLarge: false }));
    req.on('close', () => settle({ ok: false, tooLarge: false }));
  });
}
