import { useFlagpole } from './support';

describe('HTTP conventions around the routes', () => {
  const ctx = useFlagpole();

  it('reads the body as JSON when the Content-Type is empty or malformed', async () => {
    for (const type of ['', 'foo']) {
      const r = await ctx.api.post('/api/v1/namespaces', JSON.stringify({ key: `ct${type.length}`, name: 'CT' }), { 'content-type': type });
      expect(r.status).toBe(200);
      expect(r.body.key).toBe(`ct${type.length}`);
    }
  });

  it('answers ?pretty with indented JSON without default values', async () => {
    await ctx.api.post('/api/v1/namespaces/default/flags', { key: 'pretty', name: 'Pretty' });
    const r = await ctx.api.get('/api/v1/namespaces/default/flags/pretty?pretty');
    expect(r.text).toContain('\n  "key": "pretty"');
    expect(r.body).not.toHaveProperty('enabled');
    expect(r.body).not.toHaveProperty('description');
    expect(r.body).not.toHaveProperty('variants');
    const accept = await ctx.api.get('/api/v1/namespaces/default/flags/pretty', undefined, { accept: 'application/json+pretty' });
    expect(accept.text).toBe(r.text);
    const plain = await ctx.api.get('/api/v1/namespaces/default/flags/pretty');
    expect(plain.body).toMatchObject({ enabled: false, description: '', variants: [] });
  });

  it('answers a malformed path escape with the standard error body', async () => {
    const r = await ctx.api.get('/api/v1/namespaces/%zz');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 3, details: [] });
    expect(typeof r.body.message).toBe('string');
  });
});
