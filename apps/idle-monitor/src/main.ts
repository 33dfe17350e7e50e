import { NestFactory } from '@nestjs/core';
import { shutdownDeadlineMs } from '@podwarden/policies';
import { NestPinoLogger, closeOnSignals, closingWith, startApp, startTracing } from '@podwarden/platform';
import { IdleMonitorModule } from './idle-monitor.module';

async function bootstrap(): Promise<void> {
  const start = startApp('idle-monitor');
  const { config, logger } = start;
  // Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const tracing = startTracing('idle-monitor');
  const options = { logger: new NestPinoLogger(logger) };
  if (config.healthPort !== null) {
    const app = await NestFactory.create(IdleMonitorModule.forRoot(start), options);
    closeOnSignals(closingWith(app, tracing), logger, shutdownDeadlineMs(config, 'worker'));
    await app.listen(config.healthPort, config.http.host);
    logger.info({ healthPort: config.healthPort }, 'idle-monitor health listening');
  } else {
    const app = await NestFactory.createApplicationContext(IdleMonitorModule.forRoot(start), options);
    closeOnSignals(closingWith(app, tracing), logger, shutdownDeadlineMs(config, 'worker'));
  }
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(
    `[idle-monitor] failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
