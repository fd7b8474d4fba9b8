import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ErrorResponse } from './common/list.dto';

/**
 * The API explorer: Swagger UI at /docs, the OpenAPI document at /docs-json. The document is built when it is first
 * asked for, not at start-up, where scanning every route for it took about a tenth of the time to healthy.
 */
export function setupSwagger(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => apiDocument(app), { jsonDocumentUrl: 'docs-json' });
}

function apiDocument(app: INestApplication): OpenAPIObject {
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
  return document;
}

type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: object };
type Operation = { parameters?: Parameter[] };

/**
 * Nest documents one operation object for a controller method that serves several paths (the namespaced
 * `/namespaces/{namespaceKey}/flags` and the legacy `/flags`), and leaves out path parameters that no `@Param()`
 * declares (the namespace comes from `@RequestNamespace()`). Each path gets its own copy of the operation, with
 * exactly the path parameters its path has; on a legacy path the namespace is a query field (GET, DELETE) or a body
 * field (its DTO documents it).
 */
function fixLegacyRouteParameters(document: OpenAPIObject): void {
  const paths = document.paths as Record<string, Record<string, Operation>>;
  for (const [path, item] of Object.entries(paths)) {
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const legacy = path.startsWith('/api/v1/') && !path.includes('{namespaceKey}') && paths[path.replace(/^\/api\/v1\//, '/api/v1/namespaces/{namespaceKey}/')] !== undefined;
    for (const [method, shared] of Object.entries(item)) {
      if (!shared || typeof shared !== 'object' || !('responses' in shared)) continue;
      const own = (shared.parameters ?? []).filter((p) => p.in !== 'path' || names.includes(p.name));
      const missing = names
        .filter((name) => !own.some((p) => p.in === 'path' && p.name === name))
        .map((name): Parameter => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
      const parameters = [...missing, ...own];
      if (legacy && (method === 'get' || method === 'delete') && !parameters.some((p) => p.name === 'namespaceKey')) {
        parameters.push({ name: 'namespaceKey', in: 'query', required: false, description: 'Namespace (default `default`)', schema: { type: 'string' } });
      }
      item[method] = { ...shared, parameters };
    }
  }
}
