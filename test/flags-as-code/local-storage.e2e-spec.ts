/**
 * `storage.type: local` against a real directory (every dialect for the mirror): flags served from Flipt-format
 * files, the index's include/exclude, a change to a file served without a restart (the bench times it), a bad change
 * refused while the last good state keeps serving and `/health` says why, namespaces appearing and disappearing with
 * their files, every write route answering Flipt's read-only error, and a database holding API-made flags refused.
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropDatabase, freshDatabaseUrl } from '../support/databases';
import { eventually } from '../ops/support/grpc-health-client';
import { client, http, startFlagpole, type RunningFlagpole } from '../support/flagpole';

const FIXTURES = join(__dirname, 'fixtures');

describe('declarative storage: storage.type local', () => {
  let dir: string;
  let fp: RunningFlagpole;
  let api: ReturnType<typeof client>;
  const write = (name: string, text: string) => {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  };
  const variantOf = async (ns: string, flagKey: string, context: Record<string, string>) =>
    (await api.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey, entityId: 'u1', context })).body;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagpole-local-'));
    write('staging.features.yml', readFileSync(join(FIXTURES, 'v1.4-complete.yml'), 'utf8'));
    write('team/a/features.yml', 'namespace: team-a\nflags:\n- key: a1\n  name: A1\n  enabled: true\n');
    write('notes.yml', 'not: flag state\n');
    // Poll rarely: the watcher is what must see changes.
    fp = await startFlagpole({ FLAGPOLE_STORAGE_TYPE: 'local', FLAGPOLE_STORAGE_LOCAL_PATH: dir, FLAGPOLE_STORAGE_LOCAL_POLL_INTERVAL: '60s' });
    api = client(fp.url);
  });
  afterAll(async () => {
    await fp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the files: namespaces, flags and evaluations', async () => {
    const namespaces = (await api.get('/api/v1/namespaces')).body.namespaces.map((n: { key: string }) => n.key);
    expect(namespaces.sort()).toEqual(['default', 'staging', 'team-a']);
    expect((await api.get('/api/v1/namespaces/staging/flags')).body.flags).toHaveLength(3);
    expect(await variantOf('staging', 'checkout', { plan: 'pro', beta: 'true' })).toMatchObject({ match: true, variantKey: 'express' });
    const snapshot = await api.get('/internal/v1/evaluation/snapshot/namespace/team-a');
    expect(snapshot.body.flags.map((f: { key: string }) => f.key)).toEqual(['a1']);
    expect((await api.get('/meta/info')).body.storage).toEqual({ type: 'local', readOnly: true });
    const health = await api.get('/health');
    expect(health.body).toMatchObject({ status: 'SERVING', storage: { type: 'local', path: dir, files: 2 } });
    expect(health.body.storage.error).toBeUndefined();
  });

  it('answers every write with Flipt\'s read-only error, and changes nothing', async () => {
    const refusals = [
      await api.post('/api/v1/namespaces', { key: 'new', name: 'New' }),
      await api.put('/api/v1/namespaces/staging', { name: 'Renamed' }),
      await api.post('/api/v1/namespaces/staging/flags', { key: 'x', name: 'X' }),
      await api.delete('/api/v1/namespaces/staging/flags/checkout'),
      await api.post('/api/v1/namespaces/staging/segments/europe/constraints', { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'v' }),
      await http(fp.url, 'POST', '/api/v1/namespaces/staging/import', 'flags: []\n', { 'content-type': 'application/yaml' }),
    ];
    for (const r of refusals) {
      expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: { code: 9, message: 'modification is not allowed in read-only mode', details: [] } });
    }
    expect((await api.get('/api/v1/namespaces/staging')).body.name).toBe('Staging');
    expect((await api.get('/api/v1/namespaces/staging/flags')).body.flags).toHaveLength(3);
    // Exporting works: the files' state, as a document.
    expect((await http(fp.url, 'GET', '/api/v1/namespaces/team-a/export')).text).toContain('- key: a1\n');
  });

  it('serves a change to a file without a restart, long before the poll', async () => {
    write('team/a/features.yml', 'namespace: team-a\nflags:\n- key: a1\n  name: A1 renamed\n  enabled: false\n- key: a2\n  name: A2\n');
    // Seen by the watcher (the poll is a minute away); how fast is the bench's to say (bench/declarative.js).
    await eventually(async () => (await api.get('/api/v1/namespaces/team-a/flags')).body.flags?.length === 2, 10_000);
    expect((await api.get('/api/v1/namespaces/team-a/flags/a1')).body).toMatchObject({ name: 'A1 renamed', enabled: false });
  });

  it('refuses a bad change, keeps serving the last good state, and says why in /health until it is fixed', async () => {
    write('team/a/features.yml', 'namespace: team-a\nflags:\n- key: a1\n  name: A1\n  variants:\n  - key: v\n  rules:\n  - segment: nowhere\n');
    await eventually(async () => Boolean((await api.get('/health')).body.storage?.error), 10_000);
    const health = (await api.get('/health')).body;
    expect(health.status).toBe('SERVING');
    expect(health.storage.error).toBe('team/a/features.yml: line 8, column 5, flags[0].rules[0]: flag team-a/a1 rule 1 references unknown segment "nowhere"');
    expect((await api.get('/api/v1/namespaces/team-a/flags')).body.flags.map((f: { key: string }) => f.key)).toEqual(['a1', 'a2']);

    write('team/a/features.yml', 'namespace: team-a\nflags:\n- key: a1\n  name: A1\n');
    await eventually(async () => (await api.get('/health')).body.storage?.error === undefined, 10_000);
    expect((await api.get('/api/v1/namespaces/team-a/flags')).body.flags.map((f: { key: string }) => f.key)).toEqual(['a1']);
  });

  it('follows the index: include and exclude globs; namespaces come and go with their files', async () => {
    write('.flipt.yml', 'version: "1.0"\ninclude:\n- "*.features.yml"\n- "prod/**"\nexclude:\n- "staging.features.yml"\n');
    write('prod/p.yml', 'namespace: prod\nflags:\n- key: p1\n  name: P1\n');
    await eventually(async () => {
      const keys = (await api.get('/api/v1/namespaces')).body.namespaces.map((n: { key: string }) => n.key);
      return keys.includes('prod') && !keys.includes('staging') && !keys.includes('team-a');
    }, 10_000);
    expect((await api.get('/api/v1/namespaces/staging')).status).toBe(404);
    expect((await api.post('/evaluate/v1/boolean', { namespaceKey: 'staging', flagKey: 'dark-mode', entityId: 'u' })).status).toBe(404);
    unlinkSync(join(dir, '.flipt.yml'));
    // Namespace by namespace, each in its own transaction: wait for the last of them.
    await eventually(async () => (await api.get('/api/v1/namespaces/staging')).status === 200 && (await api.get('/api/v1/namespaces/prod')).status === 404, 10_000);
  });

  it('refuses an index that includes nothing, naming the file', async () => {
    write('.flipt.yml', 'version: "1.0"\n');
    await eventually(async () => Boolean((await api.get('/health')).body.storage?.error), 10_000);
    expect((await api.get('/health')).body.storage.error).toBe('.flipt.yml: includes no files: `include` must list at least one glob');
    unlinkSync(join(dir, '.flipt.yml'));
    await eventually(async () => (await api.get('/health')).body.storage?.error === undefined, 10_000);
  });
});

describe('declarative storage: refusals at start-up', () => {
  it('will not start from files that do not check, nor on a database holding flags made through the API', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flagpole-local-'));
    const data = mkdtempSync(join(tmpdir(), 'flagpole-local-db-'));
    const dbUrl = await freshDatabaseUrl(data);
    try {
      writeFileSync(join(dir, 'features.yml'), 'flags:\n- key: bad key\n  name: B\n');
      await expect(startFlagpole({ FLAGPOLE_STORAGE_TYPE: 'local', FLAGPOLE_STORAGE_LOCAL_PATH: dir, FLAGPOLE_DB_URL: dbUrl }))
        .rejects.toThrow('storage.local: the files in');

      const db = await startFlagpole({ FLAGPOLE_DB_URL: dbUrl });
      await client(db.url).post('/api/v1/namespaces/default/flags', { key: 'made-by-api', name: 'API' });
      await db.close();
      writeFileSync(join(dir, 'features.yml'), 'flags:\n- key: good\n  name: G\n');
      await expect(startFlagpole({ FLAGPOLE_STORAGE_TYPE: 'local', FLAGPOLE_STORAGE_LOCAL_PATH: dir, FLAGPOLE_DB_URL: dbUrl }))
        .rejects.toThrow('holds 1 flags and segments made through the API');
    } finally {
      await dropDatabase(dbUrl);
      rmSync(dir, { recursive: true, force: true });
      rmSync(data, { recursive: true, force: true });
    }
  });
});

describe('declarative storage: hostile YAML', () => {
  // Anchors each used 50 times: under any per-anchor cap, and once resolved in quadratic time at every start of every
  // replica (docs/security.md, limits.max_yaml_alias_nodes).
  it('refuses a file whose aliases stand for too much, naming the file, the place and the limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flagpole-local-'));
    const lines = ['flags:', '- key: f', '  name: F', '  metadata:'];
    for (let i = 0; i < 1000; i++) lines.push(`    a${i}: &a${i} x`, `    b${i}: [${Array(50).fill(`*a${i}`).join(', ')}]`);
    try {
      writeFileSync(join(dir, 'features.yml'), `${lines.join('\n')}\n`);
      await expect(startFlagpole({ FLAGPOLE_STORAGE_TYPE: 'local', FLAGPOLE_STORAGE_LOCAL_PATH: dir }))
        .rejects.toThrow(/^storage\.local: the files in .* cannot be served: features\.yml: line \d+, column \d+: aliases stand for more than 10000 nodes \(limits\.max_yaml_alias_nodes\)$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('declarative storage: a Kubernetes ConfigMap volume', () => {
  // What the kubelet makes of a ConfigMap: each file a link into `..data`, itself a link to a timestamped directory
  // that an update replaces by swapping `..data` at once.
  it('serves the files through the links, and an update that swaps the ..data link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flagpole-configmap-'));
    const version = (name: string, flagName: string) => {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'features.yml'), `namespace: cm\nflags:\n- key: f\n  name: ${flagName}\n`);
    };
    version('..2026_11_27_10_00_00.1', 'First');
    symlinkSync('..2026_11_27_10_00_00.1', join(dir, '..data'));
    symlinkSync('..data/features.yml', join(dir, 'features.yml'));
    const fp = await startFlagpole({ FLAGPOLE_STORAGE_TYPE: 'local', FLAGPOLE_STORAGE_LOCAL_PATH: dir, FLAGPOLE_STORAGE_LOCAL_POLL_INTERVAL: '60s' });
    try {
      const api = client(fp.url);
      expect((await api.get('/api/v1/namespaces/cm/flags/f')).body.name).toBe('First');
      // The files are read once, through the link: the timestamped directory is not a second copy.
      expect((await api.get('/health')).body.storage.files).toBe(1);
      version('..2026_11_27_10_05_00.2', 'Second');
      symlinkSync('..2026_11_27_10_05_00.2', join(dir, '..data_tmp'));
      renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
      await eventually(async () => (await api.get('/api/v1/namespaces/cm/flags/f')).body.name === 'Second', 10_000);
    } finally {
      await fp.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('storage.read_only with the database', () => {
  it('refuses writes to flag state through the API, and still takes tokens', async () => {
    const fp = await startFlagpole({ FLAGPOLE_STORAGE_READ_ONLY: 'true', FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true' });
    try {
      const api = client(fp.url);
      expect(await api.post('/api/v1/namespaces/default/flags', { key: 'x', name: 'X' })).toMatchObject({
        status: 400, body: { code: 9, message: 'modification is not allowed in read-only mode' },
      });
      expect((await api.get('/meta/info')).body.storage).toEqual({ type: 'database', readOnly: true });
      expect((await api.post('/auth/v1/method/token', { name: 'still works' })).status).toBe(200);
    } finally {
      await fp.close();
    }
  });
});
