import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { OPERATOR_TOKEN_SECURITY } from '../auth/operator.decorator';

/** OpenAPI UI at /docs and the document at /docs-json. */
export function setupSwagger(app: INestApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('podwarden gateway')
      .setDescription('Wake, stop and watch the RunPod pod on each configured network volume.')
      .setVersion('1')
      .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Rig-Operator-Token' }, OPERATOR_TOKEN_SECURITY)
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
}
