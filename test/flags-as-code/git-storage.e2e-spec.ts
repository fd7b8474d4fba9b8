/**
 * `storage.type: git` against a real Git server on loopback (`git http-backend`, test/flags-as-code/support): the
 * repository's files served; a push that changes a flag served within one poll interval; a bad commit refused while
 * the last good commit keeps serving and `/health` says why; basic and token authentication (a wrong credential
 * stops the start); a sub-directory. Flagpole itself runs no git binary: it reads the repository with isomorphic-git.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../ops/support/grpc-health-client';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { createRepository, selfSignedCertificate, startGitServer, type GitServer } from './support/git-server';

const FIXTURE = readFileSync(join(__dirname, 'fixtures', 'v1.4-complete.yml'), 'utf8');
const POLL_MS = 500;
const gitDescribe = existsSync('/usr/lib/git-core/git-http-backend') ? describe : describe.skip;

gitDescribe('declarative storage: storage.type git', () => {
  let root: string;
  let server: GitServer;
  let repo: ReturnType<typeof createRepository>;
  let fp: RunningFlagpole;
  let api: ReturnType<typeof client>;
  let first: string;
  const basic = `Basic ${Buffer.from('flags:s3cret').toString('base64')}`;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'flagpole-git-'));
    repo = createRepository(root, 'flags');
    first = repo.commit({ 'staging.features.yml': FIXTURE, 'README.md': '# flags\n' }, 'first');
    server = await startGitServer(root, basic);
    fp = await startFlagpole({
      FLAGPOLE_STORAGE_TYPE: 'git',
      FLAGPOLE_STORAGE_GIT_REPOSITORY: `${server.url}/flags.git`,
      FLAGPOLE_STORAGE_GIT_POLL_INTERVAL: `${POLL_MS}ms`,
      FLAGPOLE_STORAGE_GIT_AUTHENTICATION_BASIC_USERNAME: 'flags',
      FLAGPOLE_STORAGE_GIT_AUTHENTICATION_BASIC_PASSWORD: 's3cret',
    });
    api = client(fp.url);
  });
  afterAll(async () => {
    await fp?.close();
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves the repository\'s files, and says which commit in /health', async () => {
    expect((await api.get('/api/v1/namespaces/staging/flags')).body.flags).toHaveLength(3);
    const evaluation = await api.post('/evaluate/v1/variant', { namespaceKey: 'staging', flagKey: 'checkout', entityId: 'u1', context: { plan: 'pro', beta: 'true' } });
    expect(evaluation.body).toMatchObject({ match: true, variantKey: 'express' });
    const health = (await api.get('/health')).body;
    expect(health).toMatchObject({ status: 'SERVING', storage: { type: 'git', repository: `${server.url}/flags.git`, ref: 'main', revision: first, files: 1 } });
    // As git does: the credential goes with the request the server refuses without one, and none other is ever sent.
    expect(server.requests.some((r) => r.authorization === basic)).toBe(true);
    expect(server.requests.filter((r) => r.authorization !== undefined && r.authorization !== basic)).toEqual([]);
    expect((await api.post('/api/v1/namespaces/staging/flags', { key: 'x', name: 'X' })).body.code).toBe(9);
    // The repository URL may carry credentials: /meta/config does not show it.
    expect(JSON.stringify((await api.get('/meta/config')).body)).not.toContain('flags.git');
  });

  it('serves a pushed change at the next poll', async () => {
    const pushed = repo.commit({ 'staging.features.yml': FIXTURE.replace('name: Checkout', 'name: Checkout v2') }, 'rename');
    await eventually(async () => (await api.get('/api/v1/namespaces/staging/flags/checkout')).body.name === 'Checkout v2', POLL_MS * 20);
    expect((await api.get('/health')).body.storage.revision).toBe(pushed);
  });

  it('refuses a bad commit, keeps serving the last good one, and says why in /health', async () => {
    const good = (await api.get('/health')).body.storage.revision as string;
    repo.commit({ 'staging.features.yml': FIXTURE.replace('- variant: express\n      rollout: 100', '- variant: turbo\n      rollout: 100') }, 'bad');
    await eventually(async () => Boolean((await api.get('/health')).body.storage?.error), POLL_MS * 4);
    const health = (await api.get('/health')).body;
    expect(health.status).toBe('SERVING');
    expect(health.storage.revision).toBe(good);
    expect(health.storage.error).toBe('staging.features.yml: line 30, column 16, flags[0].rules[0].distributions[0].variant: flag "checkout" has no variant "turbo"');
    expect((await api.get('/api/v1/namespaces/staging/flags/checkout')).body.name).toBe('Checkout v2');

    const fixed = repo.commit({ 'staging.features.yml': FIXTURE }, 'fix');
    await eventually(async () => (await api.get('/health')).body.storage?.revision === fixed, POLL_MS * 4);
    expect((await api.get('/health')).body.storage.error).toBeUndefined();
    expect((await api.get('/api/v1/namespaces/staging/flags/checkout')).body.name).toBe('Checkout');
  });
});

gitDescribe('declarative storage: git authentication and sub-directories', () => {
  let root: string;
  let repo: ReturnType<typeof createRepository>;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'flagpole-git-'));
    repo = createRepository(root, 'flags');
    repo.commit({ 'prod/features.yml': 'namespace: prod\nflags:\n- key: p\n  name: P\n', 'features.yml': 'namespace: outside\n' });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('sends a token as Authorization: Bearer, and reads only the configured directory', async () => {
    const server = await startGitServer(root, 'Bearer t0ken');
    const env = {
      FLAGPOLE_STORAGE_TYPE: 'git', FLAGPOLE_STORAGE_GIT_REPOSITORY: `${server.url}/flags.git`, FLAGPOLE_STORAGE_GIT_DIRECTORY: 'prod',
    };
    try {
      const fp = await startFlagpole({ ...env, FLAGPOLE_STORAGE_GIT_AUTHENTICATION_TOKEN_ACCESS_TOKEN: 't0ken' });
      const keys = (await client(fp.url).get('/api/v1/namespaces')).body.namespaces.map((n: { key: string }) => n.key);
      expect(keys.sort()).toEqual(['default', 'prod']);
      await fp.close();

      await expect(startFlagpole({ ...env, FLAGPOLE_STORAGE_GIT_AUTHENTICATION_TOKEN_ACCESS_TOKEN: 'wrong' }))
        .rejects.toThrow(`storage.git: the files in ${server.url}/flags.git (main) cannot be served`);
    } finally {
      await server.close();
    }
  });

  it('fetches over HTTPS from a server whose certificate it is given, or told not to check', async () => {
    const tls = selfSignedCertificate(root);
    const server = await startGitServer(root, undefined, tls);
    const env = { FLAGPOLE_STORAGE_TYPE: 'git', FLAGPOLE_STORAGE_GIT_REPOSITORY: `${server.url}/flags.git`, FLAGPOLE_STORAGE_GIT_DIRECTORY: 'prod' };
    try {
      await expect(startFlagpole(env)).rejects.toThrow(/cannot be served: .*self.signed certificate/);
      const options: Array<Record<string, string>> = [{ FLAGPOLE_STORAGE_GIT_CA_CERT_PATH: tls.certPath }, { FLAGPOLE_STORAGE_GIT_CA_CERT_BYTES: tls.cert }, { FLAGPOLE_STORAGE_GIT_INSECURE_SKIP_TLS: 'true' }];
      for (const extra of options) {
        const fp = await startFlagpole({ ...env, ...extra });
        expect((await client(fp.url).get('/api/v1/namespaces/prod/flags')).body.flags.map((f: { key: string }) => f.key)).toEqual(['p']);
        await fp.close();
      }
    } finally {
      await server.close();
    }
  });

  it('tracks a tag as it does a branch', async () => {
    repo.tag('release');
    const tagged = repo.commit({ 'prod/features.yml': 'namespace: prod\nflags:\n- key: p\n  name: After the tag\n' });
    const server = await startGitServer(root);
    try {
      const fp = await startFlagpole({
        FLAGPOLE_STORAGE_TYPE: 'git', FLAGPOLE_STORAGE_GIT_REPOSITORY: `${server.url}/flags.git`, FLAGPOLE_STORAGE_GIT_REF: 'release',
        FLAGPOLE_STORAGE_GIT_DIRECTORY: 'prod',
      });
      try {
        // The tag, not the branch's newer commit.
        expect((await client(fp.url).get('/api/v1/namespaces/prod/flags/p')).body.name).toBe('P');
        expect((await client(fp.url).get('/health')).body.storage.revision).not.toBe(tagged);
      } finally {
        await fp.close();
      }
    } finally {
      await server.close();
    }
  });

  // Git leaves a HEAD naming a missing branch out of its advertisement; isomorphic-git alone then failed every fetch.
  it('fetches the configured ref when the remote\'s HEAD names a branch that does not exist', async () => {
    const headless = createRepository(root, 'headless');
    const commit = headless.commit({ 'features.yml': 'namespace: headless\nflags:\n- key: h\n  name: H\n' });
    headless.pointHeadAt('refs/heads/nope');
    const server = await startGitServer(root);
    try {
      const fp = await startFlagpole({ FLAGPOLE_STORAGE_TYPE: 'git', FLAGPOLE_STORAGE_GIT_REPOSITORY: `${server.url}/headless.git`, FLAGPOLE_STORAGE_GIT_REF: 'main' });
      try {
        expect((await client(fp.url).get('/api/v1/namespaces/headless/flags/h')).body.name).toBe('H');
        expect((await client(fp.url).get('/health')).body.storage).toMatchObject({ ref: 'main', revision: commit });
      } finally {
        await fp.close();
      }
    } finally {
      await server.close();
    }
  });

  it('will not serve a commit without the configured directory as "no flags"', async () => {
    const server = await startGitServer(root);
    try {
      await expect(startFlagpole({ FLAGPOLE_STORAGE_TYPE: 'git', FLAGPOLE_STORAGE_GIT_REPOSITORY: `${server.url}/flags.git`, FLAGPOLE_STORAGE_GIT_DIRECTORY: 'production' }))
        .rejects.toThrow(/cannot be served: directory "production" is not in commit [0-9a-f]{40}/);
    } finally {
      await server.close();
    }
  });

  it('will not start from a repository it cannot reach, or a ref it does not have', async () => {
    const server = await startGitServer(root);
    try {
      await expect(startFlagpole({ FLAGPOLE_STORAGE_TYPE: 'git', FLAGPOLE_STORAGE_GIT_REPOSITORY: `${server.url}/flags.git`, FLAGPOLE_STORAGE_GIT_REF: 'nope' }))
        .rejects.toThrow(/^storage\.git: the files in .*\(nope\) cannot be served: .*nope/);
      await expect(startFlagpole({ FLAGPOLE_STORAGE_TYPE: 'git', FLAGPOLE_STORAGE_GIT_REPOSITORY: 'http://127.0.0.1:9/none.git' }))
        .rejects.toThrow('storage.git: the files in http://127.0.0.1:9/none.git (main) cannot be served');
    } finally {
      await server.close();
    }
  });
});
