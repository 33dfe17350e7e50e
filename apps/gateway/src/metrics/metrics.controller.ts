import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { PodwardenMetrics } from '@podwarden/platform';
import { GatewayMetrics } from './gateway-metrics';

@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: GatewayMetrics,
    private readonly shared: PodwardenMetrics,
  ) {}

  @Get()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  scrape(): Promise<string> {
    // The gateway's own series plus what every app measures (RunPod requests).
    return Registry.merge([this.metrics.registry, this.shared.registry]).metrics();
  }
}
