import { RouteRegistry } from '../src/common/route-registry';
import { client, RunningFlagpole, startFlagpole } from './support/flagpole';

describe('Swagger / OpenAPI', () => {
  let fp: RunningFlagpole;
  beforeAll(async () => {
    // Analytics on: its routes exist only then, and must be documented too.
    fp = await startFlagpole({ FLAGPOLE_ANALYTICS_ENABLED: 'true' });
  });
  afterAll(() => fp?.close());

  it('serves the UI at /docs and the document at /docs-json', async () => {
    const api = client(fp.url);
    const ui = await api.get('/docs');
    expect(ui.status).toBe(200);
    expect(ui.headers.get('content-type')).toContain('text/html');
    const doc = await api.get('/docs-json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
  });

  it('documents every API route, with exactly the path parameters its path has', async () => {
    const doc = (await client(fp.url).get('/docs-json')).body;
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries<Record<string, { parameters?: Array<{ in: string; name: string }>; responses: object }>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        documented.add(`${method.toUpperCase()} ${path}`);
        const inPath = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name).sort();
        expect({ [`${method} ${path}`]: inPath }).toEqual({ [`${method} ${path}`]: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort() });
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
        // Only the legacy management routes read the namespace from the query.
        const namespaceQuery = (op.parameters ?? []).some((p) => p.in === 'query' && p.name === 'namespaceKey');
        if (!path.startsWith('/api/v1/')) expect({ [`${method} ${path}`]: namespaceQuery }).toEqual({ [`${method} ${path}`]: false });
      }
    }
    const api = fp.app.get(RouteRegistry).list()
      .filter((r) => /^\/(api|evaluate|internal|ofrep|auth|meta|health|metrics)/.test(r.url) && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(api.length).toBeGreaterThan(60);
    expect(api.filter((r) => !documented.has(r))).toEqual([]);
  });
});
