import type { Request, Response } from 'express';
import type { PodConfig } from '@podwarden/policies';

/** One client request on its way through the proxy, its body already read. */
export interface Exchange {
  readonly pod: PodConfig;
  readonly req: Request;
  readonly res: Response;
  /** `/v1/…` with the query string, as the client sent it. */
  readonly path: string;
  readonly body: Buffer;
  readonly arrival: number;
  readonly signal: AbortSignal;
  /** Set once a forward found the pod not serving and the request went the cold way again. */
  readonly bounced?: boolean;
}
