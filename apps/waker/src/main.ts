import { NestFactory } from '@nestjs/core';
import { shutdownDeadlineMs } from '@podwarden/policies';
import { NestPinoLogger, closeOnSignals, closingWith, startApp, startTracing } from '@podwarden/platform';
import { WakerModule } from './waker.module';

async function bootstrap(): Promise<void> {
  const start = startApp('waker');
  const { config, logger } = start;
  // Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const tracing = startTracing('waker');
  const options = { logger: new NestPinoLogger(logger) };
  if (config.healthPort !== null) {
    // Health and nothing else on HEALTH_PORT, for orchestrators' probes.
    const app = await NestFactory.create(WakerModule.forRoot(start), options);
    closeOnSignals(closingWith(app, tracing), logger, shutdownDeadlineMs(config, 'worker'));
    await app.listen(config.healthPort, config.http.host);
    logger.info({ healthPort: config.healthPort }, 'waker health listening');
  } else {
    const app = await NestFactory.createApplicationContext(WakerModule.forRoot(start), options);
    closeOnSignals(closingWith(app, tracing), logger, shutdownDeadlineMs(config, 'worker'));
  }
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(
    `[waker] failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
