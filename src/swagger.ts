import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { ErrorResponse } from './common/list.dto';

/** The API explorer: Swagger UI at /docs, the OpenAPI document at /docs-json. */
export function setupSwagger(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Flagpole')
    .setDescription(
      'Feature-flag management and evaluation, wire-compatible with Flipt v1\'s REST API. Errors are ' +
        '`{"code": <gRPC code>, "message": "...", "details": []}`.',
    )
    .setVersion(process.env.npm_package_version ?? '0.1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Client token' })
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ErrorResponse] });
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
}
