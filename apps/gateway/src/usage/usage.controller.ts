import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  DEFAULT_BOOT_MINUTES,
  usageAsTrace,
  type PodConfig,
  type PodwardenConfig,
  type UsageRecord,
} from '@podwarden/policies';
import { CONFIG, LOGGER, UsageStore, orWarn, type AppLogger, boundedRead } from '@podwarden/platform';
import { Operator } from '../auth/operator.decorator';
import { ApiProblemResponse } from '../http/api-problem-response.decorator';
import { storeUnavailable } from '../http/problem';
import { ConfiguredPod, PodRoute } from '../pods/pod-route.decorator';
import { UsageQueryDto } from './usage-query.dto';
import { UsageTraceDto } from './usage-trace.dto';

const DAY_MS = 86_400_000;

/**
 * GET /api/pods/{name}/usage: the pod's own recorded usage as a trace, for
 * `podwarden what-if NAME` and users' own analysis. Operator token: it tells
 * when people use the model.
 */
@ApiTags('pods')
@Controller('api/pods')
export class UsageController {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly usage: UsageStore,
  ) {}

  @Get(':name/usage')
  @Operator('operator', 'the usage record (Redis) is unreadable')
  @PodRoute()
  @ApiOperation({ summary: "The pod's recorded usage in the what-if trace format" })
  @ApiOkResponse({ type: UsageTraceDto })
  @ApiProblemResponse(400, 'bad days')
  @ApiProblemResponse(503, 'the usage record (Redis) is unreadable')
  async usageOf(@ConfiguredPod() pod: PodConfig, @Query() query: UsageQueryDto): Promise<UsageTraceDto> {
    const days = query.days ?? this.config.rhythm.usageRetentionDays;
    return orWarn(
      async () => {
        const record = await boundedRead(
          this.config,
          this.usage.read(pod.name, Date.now() - days * DAY_MS),
          'usage read',
        );
        return { ...usageAsTrace(record, DEFAULT_BOOT_MINUTES, pod.maxPricePerHour), stops: stopsOf(record) };
      },
      {
        logger: this.logger,
        fields: { pod: pod.name },
        message: 'usage record unreadable',
        fallback: storeUnavailable(
          pod.name,
          'usage-unreadable',
          'Usage unreadable',
          'the usage record could not be read',
        ),
      },
    );
  }
}

/** The record's stops, oldest first, beside the trace: a replay reads only its requests. */
function stopsOf(record: UsageRecord): UsageTraceDto['stops'] {
  return [...record.stops]
    .sort((a, b) => a.at - b.at)
    .map((stop) => ({ at: new Date(stop.at).toISOString(), trigger: stop.trigger }));
}
