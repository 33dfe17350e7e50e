import { ValidationPipe, type INestApplication } from '@nestjs/common';
import type { PodwardenConfig } from '@podwarden/policies';
import { httpTracingMiddleware, type AppLogger } from '@podwarden/platform';
import { loadConsoleAssets } from './console/console-assets';
import { consoleMiddleware } from './console/console.middleware';
import { setupSwagger } from './docs/setup-swagger';
import { JsonBodyPipe } from './http/json-body.pipe';
import { ProblemDetailsFilter } from './http/problem-details.filter';
import { validationProblem } from './http/validation-problem';
import { GatewayMetrics } from './metrics/gateway-metrics';
import { httpMetricsMiddleware } from './metrics/http-metrics.middleware';

/**
 * Everything the gateway adds to the Nest app besides its module: shared by
 * main.ts and the specs, so the tests serve exactly what production serves.
 * Call before init/listen: express middleware must precede Nest's routes.
 */
export function configureGateway(app: INestApplication, config: PodwardenConfig, logger: AppLogger): void {
  // The framework banner tells a scanner nothing it needs.
  (app.getHttpAdapter().getInstance() as { disable(setting: string): void }).disable('x-powered-by');
  app.useGlobalFilters(new ProblemDetailsFilter(logger));
  // Every body, path and query DTO is checked here; unknown fields are refused, not dropped silently.
  app.useGlobalPipes(
    new JsonBodyPipe(),
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: validationProblem,
    }),
  );
  app.use(httpTracingMiddleware());
  app.use(httpMetricsMiddleware(app.get(GatewayMetrics)));
  app.use(consoleMiddleware(loadConsoleAssets()));
  setupSwagger(app);
  warnAboutTheGate(config, logger);
}

function warnAboutTheGate(config: PodwardenConfig, logger: AppLogger): void {
  if (config.operatorGate === 'off') {
    logger.warn(
      { operatorGate: 'off' },
      'OPERATOR_GATE=off: start, stop and the queue board (/admin/queues) are open to any caller',
    );
  } else if (config.operatorToken === null) {
    logger.warn(
      { operatorGate: 'on' },
      'OPERATOR_GATE is on but RIG_OPERATOR_TOKEN is not set: start, stop and /admin/queues answer 503',
    );
  }
}
