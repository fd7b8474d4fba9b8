import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
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
  fixLegacyRouteParameters(document);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
}

/**
 * A controller method serving both `/namespaces/{namespaceKey}/flags` and the legacy `/flags` declares the path
 * parameter once; on the legacy path the namespace is a query or body field instead.
 */
function fixLegacyRouteParameters(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const op of Object.values(item) as Array<{ parameters?: Array<{ name: string; in: string }> }>) {
      if (!op?.parameters) continue;
      const hadNamespace = op.parameters.some((p) => p.in === 'path' && p.name === 'namespaceKey');
      op.parameters = op.parameters.filter((p) => p.in !== 'path' || path.includes(`{${p.name}}`));
      if (hadNamespace && !path.includes('{namespaceKey}') && !op.parameters.some((p) => p.name === 'namespaceKey')) {
        op.parameters.push({ name: 'namespaceKey', in: 'query', required: false, description: 'Namespace (default `default`)', schema: { type: 'string' } } as never);
      }
    }
  }
}
