import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Post, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { isPodConfigured, type PodConfig, type PodwardenConfig } from '@podwarden/policies';
import { CONFIG, StopService } from '@podwarden/platform';
import { Operator } from '../auth/operator.decorator';
import { ApiProblemResponse } from '../http/api-problem-response.decorator';
import { problem, ProblemException } from '../http/problem';
import { HistoryQueryDto } from '../history/history-query.dto';
import { HistoryDto } from '../history/history.dto';
import { HistoryService } from '../history/history.service';
import { KeepAliveRequestDto } from '../keep-alive/keep-alive-request.dto';
import { KeepAliveResponseDto } from '../keep-alive/keep-alive-response.dto';
import { KeepAliveService } from '../keep-alive/keep-alive.service';
import { PodListDto, PodStatusDto } from '../status/pod-status.dto';
import { PodStatusService } from '../status/pod-status.service';
import { ManualStopUsage } from '../stop/manual-stop-usage';
import { stopAnswer } from '../stop/stop-answer';
import { StopResponseDto } from '../stop/stop-response.dto';
import { OPERATOR_REQUESTER, requestedBy } from '../wake/requested-by';
import { StartResponseDto } from '../wake/start-response.dto';
import { StartWakeService } from '../wake/start-wake.service';
import { ConfiguredPod, PodRoute, UNEXPECTED_ERROR } from './pod-route.decorator';

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
    private readonly manualStops: ManualStopUsage,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Every configured pod with its status summary, in config order' })
  @ApiOkResponse({ type: PodListDto })
  @ApiProblemResponse(500, UNEXPECTED_ERROR)
  async list(): Promise<PodListDto> {
    return { pods: await Promise.all(this.config.pods.map((pod) => this.status.read(pod))) };
  }

  @Get(':name')
  @PodRoute()
  @ApiOperation({
    summary: 'Status of the pod on the volume; 200 also when unconfigured or during a RunPod blip',
  })
  @ApiOkResponse({ type: PodStatusDto })
  get(@ConfiguredPod() pod: PodConfig): Promise<PodStatusDto> {
    return this.status.read(pod);
  }

  @Get(':name/history')
  @PodRoute()
  @ApiOperation({ summary: 'Billable actions and wake attempts, newest first' })
  @ApiOkResponse({ type: HistoryDto })
  @ApiProblemResponse(400, 'bad limit')
  @ApiProblemResponse(503, 'history store unreadable')
  historyOf(@ConfiguredPod() pod: PodConfig, @Query() query: HistoryQueryDto): Promise<HistoryDto> {
    return this.history.read(pod, query.limit);
  }

  @Post(':name/start')
  @Operator('operator-or-wake', 'the pod is unconfigured, or Redis did not take the wake')
  @PodRoute()
  @ApiOperation({
    summary: 'Wake the pod: start the stopped one or create a replacement; joins a wake in flight',
  })
  @ApiHeader({
    name: 'X-Requested-By',
    required: false,
    description: 'who asks, recorded in the wake history',
  })
  @ApiResponse({ status: 200, description: 'AlreadyRunning, Started or Created', type: StartResponseDto })
  @ApiResponse({ status: 202, description: 'Waiting: a wake is in flight, poll GET', type: StartResponseDto })
  @ApiProblemResponse(409, 'Failed: nothing in flight; detail says why')
  async start(
    @ConfiguredPod() pod: PodConfig,
    @Headers('x-requested-by') requester: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StartResponseDto> {
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
  @HttpCode(200)
  @Operator('operator', 'the pod is unconfigured, or the volume lookup was unreadable')
  @PodRoute('unknown pod name, or no pod on the volume')
  @ApiOperation({ summary: 'Stop every pod on the volume (a stale pod and its replacement may both bill)' })
  @ApiOkResponse({ description: 'ok is the conjunction of the per-pod results', type: StopResponseDto })
  async stop(@ConfiguredPod() pod: PodConfig): Promise<StopResponseDto> {
    const stopped = await this.status.changing(pod, () => this.stops.stopVolume(pod, 'manual'));
    // Not awaited: the usage record is evidence for the idle policy, never a condition of the stop.
    void this.manualStops.record(pod, stopped);
    const answer = stopAnswer(pod.name, stopped);
    if (answer.kind === 'problem') throw answer.error;
    return answer.body;
  }

  // Operator only: keeping a pod up bills, so the wake-only token (start only) is refused here.
  @Post(':name/keepalive')
  @HttpCode(200)
  @Operator('operator', 'Redis did not take it')
  @PodRoute()
  @ApiOperation({
    summary: 'Hold off the idle stop for some minutes from now; boot grace and the runtime cap still apply',
  })
  @ApiHeader({ name: 'X-Requested-By', required: false, description: 'who asks, recorded in the action log' })
  @ApiOkResponse({ description: 'the keep-alive now in force', type: KeepAliveResponseDto })
  @ApiProblemResponse(400, 'bad minutes (above 0, at most KEEP_ALIVE_MAX_MINUTES)')
  keepAlive(
    @ConfiguredPod() pod: PodConfig,
    @Body() body: KeepAliveRequestDto,
    @Headers('x-requested-by') requester: string | undefined,
  ): Promise<KeepAliveResponseDto> {
    return this.status.changing(pod, () =>
      this.keepAlives.keepAlive(pod, body.minutes, requestedBy(requester, OPERATOR_REQUESTER)),
    );
  }

  @Delete(':name/keepalive')
  @Operator('operator', 'Redis did not take it')
  @PodRoute()
  @ApiOperation({ summary: 'Clear the keep-alive: the idle stop applies again' })
  @ApiHeader({ name: 'X-Requested-By', required: false, description: 'who asks, recorded in the action log' })
  @ApiOkResponse({ description: 'keepAliveUntil is null', type: KeepAliveResponseDto })
  clearKeepAlive(
    @ConfiguredPod() pod: PodConfig,
    @Headers('x-requested-by') requester: string | undefined,
  ): Promise<KeepAliveResponseDto> {
    return this.status.changing(pod, () =>
      this.keepAlives.clear(pod, requestedBy(requester, OPERATOR_REQUESTER)),
    );
  }
}
