import { NestFactory } from '@nestjs/core';
import {
  NestPinoLogger,
  closeOnSignals,
  describeRedisUrl,
  errorMessage,
  startApp,
} from '@podwarden/platform';
import { configureGateway } from './configure-gateway';
import { GatewayModule } from './gateway.module';

async function bootstrap(): Promise<void> {
  const start = startApp('gateway');
  const { config, logger } = start;
  const app = await NestFactory.create(GatewayModule.forRoot(start), { logger: new NestPinoLogger(logger) });
  closeOnSignals(app, logger, config.tuning.shutdownGraceMs);
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
