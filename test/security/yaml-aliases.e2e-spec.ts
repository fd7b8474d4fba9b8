/**
 * YAML aliases in an import (docs/security.md, `limits.max_yaml_alias_nodes`): anchors each used 50 times stay under
 * any per-anchor cap, and the `yaml` library resolved them in quadratic time (a 300 KiB body held every request for
 * 55 s). What the aliases stand for is now counted in one pass: past the limit the import is a 400 naming it, and
 * evaluations sent beside it are answered.
 */
import { http } from '../support/flagpole';
import { useFlagpole } from '../management/support';
import { anchorsUsed50Times } from './support/hostile-documents';

const YAML = { 'content-type': 'application/yaml' };

describe('hostile YAML: anchors used many times', () => {
  const ctx = useFlagpole();

  it('refuses the import with a 400 naming the limit, while an evaluation and /health beside it answer', async () => {
    expect((await ctx.api.post('/api/v1/namespaces/default/flags', { key: 'on', name: 'On', type: 'BOOLEAN_FLAG_TYPE', enabled: true })).status).toBe(200);
    const text = anchorsUsed50Times(1000);
    expect(text.length).toBeGreaterThan(300 * 1024);

    const [imported, evaluation, health] = await Promise.all([
      http(ctx.fp.url, 'POST', '/api/v1/namespaces/hostile/import', text, YAML),
      ctx.api.post('/evaluate/v1/boolean', { namespaceKey: 'default', flagKey: 'on', entityId: 'u1' }),
      ctx.api.get('/health'),
    ]);
    expect(imported.status).toBe(400);
    expect(imported.body).toEqual({
      code: 3,
      message: expect.stringMatching(/^request body: line \d+, column \d+: aliases stand for more than 10000 nodes \(limits\.max_yaml_alias_nodes\)$/),
      details: [],
    });
    expect({ status: evaluation.status, enabled: evaluation.body.enabled }).toEqual({ status: 200, enabled: true });
    expect(health.status).toBe(200);
    // Nothing was written.
    expect((await ctx.api.get('/api/v1/namespaces/hostile')).status).toBe(404);
  });
});

describe('hostile YAML: limits.max_yaml_alias_nodes raised', () => {
  const ctx = useFlagpole({ FLAGPOLE_LIMITS_MAX_YAML_ALIAS_NODES: '100000' });

  // The same body, now within the limit: counting and expanding it take one pass each (the library's resolution took
  // 55 s of event loop for it).
  it('imports the document, every alias expanded', async () => {
    const imported = await http(ctx.fp.url, 'POST', '/api/v1/namespaces/hostile/import', anchorsUsed50Times(1000), YAML);
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ namespaceKey: 'hostile', flagsCreated: 1 });
    const flag = (await ctx.api.get('/api/v1/namespaces/hostile/flags/f')).body;
    expect(flag.metadata.b999).toEqual(Array(50).fill('x'));
  });
});
