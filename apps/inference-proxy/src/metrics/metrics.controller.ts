import { Controller, Get, Header } from '@nestjs/common';
import { Registry } from 'prom-client';
import { ProxyMetrics } from './proxy-metrics';

@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: ProxyMetrics) {}

  @Get()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
