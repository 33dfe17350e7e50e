import {
  Inject,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Observable } from 'rxjs';
import { findPod, type PodwardenConfig } from '@podwarden/policies';
import { CONFIG } from '@podwarden/platform';
import { problem } from '../http/problem';
import type { PodRequest } from './pod-request';

/**
 * Resolves {name} to the configured pod (case-insensitive) or answers 404. An interceptor for where it
 * runs: after every guard (401 first, so an unauthenticated caller learns nothing) and before the pipes
 * (an unknown pod is 404 even with an invalid body).
 */
@Injectable()
export class KnownPodInterceptor implements NestInterceptor {
  constructor(@Inject(CONFIG) private readonly config: PodwardenConfig) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<PodRequest>();
    const name = String(request.params.name);
    const pod = findPod(this.config, name);
    if (pod === null) {
      throw problem(
        404,
        'unknown-pod',
        'Unknown pod',
        `no pod named ${JSON.stringify(name.slice(0, 100))} is configured`,
      );
    }
    request.pod = pod;
    return next.handle();
  }
}
