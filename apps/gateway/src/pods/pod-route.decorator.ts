import {
  applyDecorators,
  createParamDecorator,
  UseInterceptors,
  type ExecutionContext,
} from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import type { PodConfig } from '@podwarden/policies';
import { ApiProblemResponse } from '../http/api-problem-response.decorator';
import { KnownPodInterceptor } from './known-pod.interceptor';
import type { PodRequest } from './pod-request';

export const UNEXPECTED_ERROR = 'unexpected error; the details stay in the gateway log';

/** A route keyed on a configured pod's {name}: 404 for an unknown name, before any RunPod call or queue write. */
export function PodRoute(notFound = 'unknown pod name'): MethodDecorator {
  return applyDecorators(
    UseInterceptors(KnownPodInterceptor),
    ApiParam({ name: 'name', type: String, description: 'friendly pod name, case-insensitive' }),
    ApiProblemResponse(404, notFound),
    ApiProblemResponse(500, UNEXPECTED_ERROR),
  );
}

/** The pod a @PodRoute() resolved. */
export const ConfiguredPod = createParamDecorator((_data: unknown, context: ExecutionContext): PodConfig => {
  const pod = context.switchToHttp().getRequest<PodRequest>().pod;
  if (pod === undefined) throw new Error('@ConfiguredPod() needs @PodRoute() on the route');
  return pod;
});
