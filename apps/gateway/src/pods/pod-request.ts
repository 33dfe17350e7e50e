import type { Request } from 'express';
import type { PodConfig } from '@podwarden/policies';

/** A request to a /api/pods/{name} route once KnownPodInterceptor has found the configured pod. */
export interface PodRequest extends Request {
  pod?: PodConfig;
}
