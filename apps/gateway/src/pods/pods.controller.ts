import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { isPodConfigured, parseKeepAliveMinutes, type PodwardenConfig } from '@podwarden/policies';
import { CONFIG, StopService } from '@podwarden/platform';
import { OperatorGate } from '../auth/operator-token.guard';
import { problem, ProblemException } from '../http/problem';
import { parseHistoryLimit } from '../history/history-limit';
import { HistoryService } from '../history/history.service';
import type { HistoryBody } from '../history/history-view';
import { KeepAliveService, type KeepAliveBody } from '../keep-alive/keep-alive.service';
import type { PodStatusBody } from '../status/pod-status-view';
import { PodStatusService } from '../status/pod-status.service';
import { stopAnswer, type StopBody } from '../stop/stop-answer';
import { requestedBy } from '../wake/requested-by';
import type { StartBody } from '../wake/start-answer';
import { StartWakeService } from '../wake/start-wake.service';
import { resolvePod } from './resolve-pod';
import {
  HISTORY_SCHEMA,
  KEEP_ALIVE_REQUEST_SCHEMA,
  KEEP_ALIVE_SCHEMA,
  POD_LIST_SCHEMA,
  POD_STATUS_SCHEMA,
  PROBLEM_SCHEMA,
  START_SCHEMA,
  STOP_SCHEMA,
} from '../docs/api-schemas';

export const OPERATOR_TOKEN_SECURITY = 'operator-token';

@ApiTags('pods')
@Controller('api/pods')
export class PodsController {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    private readonly status: PodStatusService,
    private readonly starts: StartWakeService,
    private readonly stops: StopService,
    private readonly history: HistoryService,
    private readonly keepAlives: KeepAliveService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Every configured pod with its status summary, in config order' })
  @ApiResponse({ status: 200, schema: POD_LIST_SCHEMA })
  async list(): Promise<{ pods: PodStatusBody[] }> {
    return { pods: await Promise.all(this.config.pods.map((pod) => this.status.read(pod))) };
  }

  @Get(':name')
  @ApiOperation({
    summary: 'Status of the pod on the volume; 200 also when unconfigured or during a RunPod blip',
  })
  @ApiParam({ name: 'name', description: 'friendly pod name, case-insensitive' })
  @ApiResponse({ status: 200, schema: POD_STATUS_SCHEMA })
  @ApiResponse({ status: 404, description: 'unknown pod name', schema: PROBLEM_SCHEMA })
  get(@Param('name') name: string): Promise<PodStatusBody> {
    return this.status.read(resolvePod(this.config, name));
  }

  @Get(':name/history')
  @ApiOperation({ summary: 'Billable actions and wake attempts, newest first' })
  @ApiParam({ name: 'name', description: 'friendly pod name, case-insensitive' })
  @ApiQuery({ name: 'limit', required: false, description: 'entries per list, 1..200 (default 20)' })
  @ApiResponse({ status: 200, schema: HISTORY_SCHEMA })
  @ApiResponse({ status: 400, description: 'bad limit', schema: PROBLEM_SCHEMA })
  @ApiResponse({ status: 404, description: 'unknown pod name', schema: PROBLEM_SCHEMA })
  @ApiResponse({ status: 503, description: 'history store unreadable', schema: PROBLEM_SCHEMA })
  historyOf(@Param('name') name: string, @Query('limit') rawLimit?: unknown): Promise<HistoryBody> {
    const pod = resolvePod(this.config, name);
    const limit = parseHistoryLimit(rawLimit);
    if (!limit.ok) throw problem(400, 'bad-limit', 'Bad limit', limit.reason);
    return this.history.read(pod, limit.limit);
  }

  @Post(':name/start')
  @OperatorGate('operator-or-wake')
  @ApiSecurity(OPERATOR_TOKEN_SECURITY)
  @ApiOperation({
    summary: 'Wake the pod: start the stopped one or create a replacement; joins a wake in flight',
  })
  @ApiParam({ name: 'name', description: 'friendly pod name, case-insensitive' })
  @ApiHeader({
    name: 'X-Requested-By',
    required: false,
    description: 'who asks, recorded in the wake history',
  })
  @ApiResponse({ status: 200, description: 'AlreadyRunning, Started or Created', schema: START_SCHEMA })
  @ApiResponse({ status: 202, description: 'Waiting: a wake is in flight, poll GET', schema: START_SCHEMA })
  @ApiResponse({ status: 401, description: 'missing or wrong token', schema: PROBLEM_SCHEMA })
  @ApiResponse({ status: 404, description: 'unknown pod name', schema: PROBLEM_SCHEMA })
  @ApiResponse({
    status: 409,
    description: 'Failed: nothing in flight; detail says why',
    schema: PROBLEM_SCHEMA,
  })
  @ApiResponse({
    status: 503,
    description: 'unconfigured, gate without token, or Redis down',
    schema: PROBLEM_SCHEMA,
  })
  async start(
    @Param('name') name: string,
    @Headers('x-requested-by') requester: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StartBody> {
    const pod = resolvePod(this.config, name);
    if (!isPodConfigured(this.config, pod)) {
      throw problem(
        503,
        'unconfigured',
        'Pod not configured',
        'RUNPOD_API_KEY is unset or the pod has no volume id; nothing was started',
        { name: pod.name },
      );
    }
    const answer = await this.status.changing(pod, () => this.starts.start(pod, requestedBy(requester)));
    if (answer.kind === 'problem') throw new ProblemException(answer.problem);
    response.status(answer.status);
    return answer.body;
  }

  @Post(':name/stop')
  @OperatorGate('operator')
  @ApiSecurity(OPERATOR_TOKEN_SECURITY)
  @ApiOperation({ summary: 'Stop every pod on the volume (a stale pod and its replacement may both bill)' })
  @ApiParam({ name: 'name', description: 'friendly pod name, case-insensitive' })
  @ApiResponse({
    status: 200,
    description: 'ok is the conjunction of the per-pod results',
    schema: STOP_SCHEMA,
  })
  @ApiResponse({ status: 401, description: 'missing or wrong token', schema: PROBLEM_SCHEMA })
  @ApiResponse({
    status: 404,
    description: 'unknown pod name, or no pod on the volume',
    schema: PROBLEM_SCHEMA,
  })
  @ApiResponse({
    status: 503,
    description: 'unconfigured, or volume lookup unreadable',
    schema: PROBLEM_SCHEMA,
  })
  async stop(@Param('name') name: string, @Res({ passthrough: true }) response: Response): Promise<StopBody> {
    const pod = resolvePod(this.config, name);
    const stopped = await this.status.changing(pod, () => this.stops.stopVolume(pod, 'manual'));
    const answer = stopAnswer(pod.name, stopped);
    if (answer.kind === 'problem') throw answer.error;
    response.status(200);
    return answer.body;
  }

  @Post(':name/keepalive')
  @HttpCode(200)
  @OperatorGate('operator-or-wake')
  @ApiSecurity(OPERATOR_TOKEN_SECURITY)
  @ApiOperation({
    summary: 'Hold off the idle stop for some minutes from now; boot grace and the runtime cap still apply',
  })
  @ApiParam({ name: 'name', description: 'friendly pod name, case-insensitive' })
  @ApiBody({ schema: KEEP_ALIVE_REQUEST_SCHEMA })
  @ApiResponse({ status: 200, description: 'the keep-alive now in force', schema: KEEP_ALIVE_SCHEMA })
  @ApiResponse({ status: 400, description: 'bad minutes', schema: PROBLEM_SCHEMA })
  @ApiResponse({ status: 401, description: 'missing or wrong token', schema: PROBLEM_SCHEMA })
  @ApiResponse({ status: 404, description: 'unknown pod name', schema: PROBLEM_SCHEMA })
  @ApiResponse({
    status: 503,
    description: 'gate without token, or Redis did not take it',
    schema: PROBLEM_SCHEMA,
  })
  async keepAlive(@Param('name') name: string, @Body() body: unknown): Promise<KeepAliveBody> {
    const pod = resolvePod(this.config, name);
    const minutes = parseKeepAliveMinutes(isObject(body) ? body.minutes : undefined);
    if (!minutes.ok) throw problem(400, 'bad-minutes', 'Bad minutes', minutes.reason, { name: pod.name });
    return this.status.changing(pod, () => this.keepAlives.keepAlive(pod, minutes.minutes));
  }

  @Delete(':name/keepalive')
  @OperatorGate('operator-or-wake')
  @ApiSecurity(OPERATOR_TOKEN_SECURITY)
  @ApiOperation({ summary: 'Clear the keep-alive: the idle stop applies again' })
  @ApiParam({ name: 'name', description: 'friendly pod name, case-insensitive' })
  @ApiResponse({ status: 200, description: 'keepAliveUntil is null', schema: KEEP_ALIVE_SCHEMA })
  @ApiResponse({ status: 401, description: 'missing or wrong token', schema: PROBLEM_SCHEMA })
  @ApiResponse({ status: 404, description: 'unknown pod name', schema: PROBLEM_SCHEMA })
  @ApiResponse({
    status: 503,
    description: 'gate without token, or Redis did not take it',
    schema: PROBLEM_SCHEMA,
  })
  async clearKeepAlive(@Param('name') name: string): Promise<KeepAliveBody> {
    const pod = resolvePod(this.config, name);
    return this.status.changing(pod, () => this.keepAlives.clear(pod));
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
