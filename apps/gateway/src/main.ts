import { NestFactory } from '@nestjs/core';
import {
  NestPinoLogger,
  closeOnSignals,
  closingWith,
  startTracing,
  describeRedisUrl,
  errorMessage,
  startApp,
} from '@podwarden/platform';
import { shutdownDeadlineMs } from '@podwarden/policies';
import { configureGateway } from './configure-gateway';
import { GatewayModule } from './gateway.module';

async function bootstrap(): Promise<void> {
  const start = startApp('gateway');
  const { config, logger } = start;
  // Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const tracing = startTracing('gateway');
  const app = await NestFactory.create(GatewayModule.forRoot(start), { logger: new NestPinoLogger(logger) });
  // Long enough for a start request still waiting for its wake to answer.
  closeOnSignals(closingWith(app, tracing), logger, shutdownDeadlineMs(config, 'gateway'));
  configureGateway(app, config, logger);
  await app.listen(config.http.port, config.http.host);
  logger.info(
    { url: await app.getUrl(), redis: describeRedisUrl(config.redis.url), prefix: config.redis.prefix },
    `gateway listening on http://${config.http.host}:${config.http.port}`,
  );
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`[gateway] failed to start: ${errorMessage(error)}\n`);
  process.exit(1);
});
