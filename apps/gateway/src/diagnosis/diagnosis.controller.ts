import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import type { PodConfig, PodwardenConfig } from '@podwarden/policies';
import { CONFIG, DiagnosisStore, LOGGER, orWarn, type AppLogger, boundedRead } from '@podwarden/platform';
import { Operator } from '../auth/operator.decorator';
import { storeUnavailable } from '../http/problem';
import { ApiProblemResponse } from '../http/api-problem-response.decorator';
import { ConfiguredPod, PodRoute } from '../pods/pod-route.decorator';
import { DiagnosisDto } from './diagnosis.dto';

/**
 * GET /api/pods/{name}/diagnosis: why the pod's last troubled boot was not ready, from its
 * logs (see docs/runbook.md). Operator token: the evidence is the pod's own output.
 */
@ApiTags('pods')
@Controller('api/pods')
export class DiagnosisController {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly diagnoses: DiagnosisStore,
  ) {}

  @Get(':name/diagnosis')
  @Operator('operator', 'the diagnosis store (Redis) is unreadable')
  @PodRoute()
  @ApiOperation({ summary: "The pod's latest boot diagnosis, or null when no boot was diagnosed" })
  @ApiExtraModels(DiagnosisDto)
  @ApiOkResponse({
    description: 'the latest diagnosis; the JSON body `null` when none',
    schema: { nullable: true, allOf: [{ $ref: getSchemaPath(DiagnosisDto) }] },
  })
  @ApiProblemResponse(503, 'the diagnosis store (Redis) is unreadable')
  async diagnosis(@ConfiguredPod() pod: PodConfig, @Res() response: Response): Promise<void> {
    const latest: DiagnosisDto | null = await orWarn(
      () => boundedRead(this.config, this.diagnoses.latest(pod.name), 'diagnosis read'),
      {
        logger: this.logger,
        fields: { pod: pod.name },
        message: 'diagnosis unreadable',
        fallback: storeUnavailable(
          pod.name,
          'diagnosis-unreadable',
          'Diagnosis unreadable',
          'the diagnosis store could not be read',
        ),
      },
    );
    // Written by hand: Nest sends an empty body for null, and the contract says `null`.
    response.status(200).type('application/json').send(JSON.stringify(latest));
  }
}
