import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import {
  NestPinoLogger,
  closeOnSignals,
  describeRedisUrl,
  errorMessage,
  startApp,
} from '@podwarden/platform';
import { InferenceProxyModule } from './inference-proxy.module';

async function bootstrap(): Promise<void> {
  const start = startApp('inference-proxy');
  const { config, logger } = start;
  // No body parser: request bodies are passed to the pod exactly as sent.
  const app = await NestFactory.create<NestExpressApplication>(InferenceProxyModule.forRoot(start), {
    logger: new NestPinoLogger(logger),
    bodyParser: false,
  });
  app.disable('x-powered-by');
  closeOnSignals(app, logger, config.tuning.shutdownGraceMs);
  await app.listen(config.proxy.port, config.http.host);
  const unguarded = config.pods.filter((pod) => pod.inferenceToken === null).map((pod) => pod.name);
  if (unguarded.length > 0) {
    logger.warn({ pods: unguarded }, 'no RIG_INFERENCE_TOKEN for these pods: the proxy answers 503 for them');
  }
  logger.info(
    { url: await app.getUrl(), redis: describeRedisUrl(config.redis.url), prefix: config.redis.prefix },
    `inference proxy listening on http://${config.http.host}:${config.proxy.port}`,
  );
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`[inference-proxy] failed to start: ${errorMessage(error)}\n`);
  process.exit(1);
});
