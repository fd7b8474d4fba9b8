import { client, startFlagpole, RunningFlagpole } from './support/flagpole';

describe('smoke', () => {
  let fp: RunningFlagpole;
  beforeAll(async () => {
    fp = await startFlagpole();
  });
  afterAll(() => fp?.close());

  it('serves the default namespace', async () => {
    const api = client(fp.url);
    const r = await api.get('/api/v1/namespaces/default');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ key: 'default', name: 'Default', description: 'Default namespace', protected: true });
  });
});
