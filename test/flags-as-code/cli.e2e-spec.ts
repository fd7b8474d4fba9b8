/**
 * `node dist/main.js export` / `import` as operators run them: against the configured database (a real one of the
 * test dialect, shared with a running server that then serves what was imported), and against a running Flagpole
 * over HTTP with `--address` and `--token` (authentication required, a namespaced token limited to its namespace).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOOTSTRAP, bearer, createToken, TOKEN_REQUIRED } from '../auth/support';
import { dropDatabase, freshDatabaseUrl } from '../support/databases';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { buildOnce, ROOT } from '../ops/support/process';

const FIXTURES = join(__dirname, 'fixtures');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function flagpole(args: string[], env: Record<string, string>, stdin?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile('node', ['dist/main.js', ...args], {
      cwd: ROOT, env: { PATH: process.env.PATH ?? '', FLAGPOLE_LOG_LEVEL: 'WARN', ...env }, timeout: 60_000,
    }, (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
    if (stdin !== undefined) child.stdin!.end(stdin);
  });
}

describe('flags as code: the export and import commands', () => {
  let dir: string;
  let dbUrl: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    await buildOnce();
    dir = mkdtempSync(join(tmpdir(), 'flagpole-cli-'));
    dbUrl = await freshDatabaseUrl(dir);
    env = { FLAGPOLE_DB_URL: dbUrl };
  }, 600_000);
  afterAll(async () => {
    await dropDatabase(dbUrl);
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports a file into the configured database (migrating it first) and reports what it did', async () => {
    const run = await flagpole(['import', join(FIXTURES, 'v1.4-complete.yml')], env);
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(run.stderr).toContain('namespace staging (created): 3 flags and 2 segments created');
    const again = await flagpole(['import', '--skip-existing', join(FIXTURES, 'v1.4-complete.yml')], env);
    expect(again.stderr).toContain('namespace staging: 0 flags and 0 segments created; 3 flags and 2 segments skipped (already there)');
  });

  it('imports a YAML stream of several namespaces from standard input, each document gated by its own version', async () => {
    const stream = `${readFileSync(join(FIXTURES, 'v1.0.yml'), 'utf8')}---\n${readFileSync(join(FIXTURES, 'v1.3.yml'), 'utf8').replace('legacy', 'other')}`;
    const run = await flagpole(['import', '--stdin'], env, stream);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('namespace legacy (created): 1 flags and 1 segments created');
    expect(run.stderr).toContain('namespace other (created): 1 flags and 0 segments created');
  });

  it('exports to a file with a header, and to standard output; several namespaces as one stream', async () => {
    const out = join(dir, 'staging.yml');
    expect((await flagpole(['export', '-o', out, '--namespaces', 'staging'], env)).code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/^# exported by Flagpole \(\d+\.\d+\.\d+[^)]*\) on \d{4}-\d\d-\d\dT[^\n]+\n\nversion: "1.4"\nnamespace:\n  key: staging\n/);

    const all = await flagpole(['export', '--all-namespaces', '--sort-by-key'], env);
    expect(all.code).toBe(0);
    const namespaces = [...all.stdout.matchAll(/^namespace:\n  key: (\S+)/gm)].map((m) => m[1]);
    expect(namespaces).toEqual(['default', 'legacy', 'other', 'staging']);
    expect(all.stdout.match(/^version:/gm)).toHaveLength(1);
    expect(all.stdout.split('\n---\n')).toHaveLength(4);

    const json = join(dir, 'two.json');
    expect((await flagpole(['export', '-o', json, '--namespaces', 'legacy,other'], env)).code).toBe(0);
    const lines = readFileSync(json, 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).namespace.key)).toEqual(['legacy', 'other']);
  });

  it('round-trips through a file: drop, import what was exported, export the same again', async () => {
    const out = join(dir, 'round.yml');
    await flagpole(['export', '-o', out, '--namespaces', 'staging'], env);
    const before = readFileSync(out, 'utf8').replace(/^#.*\n/, '');
    const run = await flagpole(['import', '--drop', out], env);
    expect(run.stderr).toContain('namespace staging: 3 flags and 2 segments created; 3 flags and 2 segments deleted first (--drop)');
    await flagpole(['export', '-o', out, '--namespaces', 'staging'], env);
    expect(readFileSync(out, 'utf8').replace(/^#.*\n/, '')).toBe(before);
  });

  it('names the file, line and path of an invalid document, writes nothing, and exits 1', async () => {
    const bad = join(dir, 'bad.features.yml');
    writeFileSync(bad, 'namespace: broken\nflags:\n- key: x\n  name: X\n  variants:\n  - key: a\n  rules:\n  - segment: s\n    distributions:\n    - variant: b\n');
    const run = await flagpole(['import', bad], env);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(`${bad}: line 10, column 16, flags[0].rules[0].distributions[0].variant: flag "x" has no variant "b"`);
    expect((await flagpole(['export', '--namespaces', 'broken'], env)).stderr.trim()).toBe('namespace "broken" not found');
  });

  it('will not import into a database that mirrors files, or one configured read-only', async () => {
    const settings: Array<Record<string, string>> = [{ FLAGPOLE_STORAGE_TYPE: 'local', FLAGPOLE_STORAGE_LOCAL_PATH: dir }, { FLAGPOLE_STORAGE_READ_ONLY: 'true' }];
    for (const extra of settings) {
      const run = await flagpole(['import', join(FIXTURES, 'v1.3.yml')], { ...env, ...extra });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('import writes to a database-backed Flagpole only');
    }
  });

  it('explains a wrong command line and exits 2', async () => {
    const run = await flagpole(['export', '--namespaces', 'a', '--all-namespaces'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--namespaces and --all-namespaces exclude each other');
    expect(run.stderr).toContain('usage:');
    expect((await flagpole(['import'], env)).code).toBe(2);
    expect((await flagpole(['export', '--bogus'], env)).stderr).toContain("Unknown option '--bogus'");
  });

  it('validates files as declarative storage would serve them, without a database', async () => {
    const files = mkdtempSync(join(tmpdir(), 'flagpole-validate-'));
    try {
      writeFileSync(join(files, 'staging.features.yml'), readFileSync(join(FIXTURES, 'v1.4-complete.yml'), 'utf8'));
      writeFileSync(join(files, 'notes.yml'), 'not: flag state\n');
      const good = await flagpole(['validate', files], {});
      expect(good).toMatchObject({ code: 0, stdout: '1 files checked, no problem found:\n  staging: 3 flags, 2 segments\n' });
      const named = await flagpole(['validate', join(FIXTURES, 'v1.0.yml'), join(FIXTURES, 'v1.1.yml')], {});
      expect(named.code).toBe(1);
      expect(named.stderr.trim()).toBe(`${join(FIXTURES, 'v1.1.yml')}: line 24, column 3, segments[0]: segment "legacy/everyone" is also defined at ${join(FIXTURES, 'v1.0.yml')}: line 22, column 3, segments[0]`);
      writeFileSync(join(files, 'staging.features.yml'), 'flags:\n- key: a\n  name: A\n  rules:\n  - segment: nowhere\n');
      const bad = await flagpole(['validate', files], {});
      expect(bad.code).toBe(1);
      expect(bad.stderr.trim()).toBe(`${files}/staging.features.yml: line 5, column 5, flags[0].rules[0]: flag default/a rule 1 references unknown segment "nowhere"`);
      expect((await flagpole(['validate', join(files, 'missing')], {})).stderr.trim()).toBe(`${join(files, 'missing')}: no such file or directory`);
    } finally {
      rmSync(files, { recursive: true, force: true });
    }
  });

  describe('against a running Flagpole (--address, --token)', () => {
    let fp: RunningFlagpole;
    beforeAll(async () => {
      // The same database: the server sees what the commands above wrote.
      fp = await startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_DB_URL: dbUrl });
    });
    afterAll(() => fp?.close());

    it('exports and imports over HTTP with a token, and is refused without one', async () => {
      const remote = ['--address', fp.url, '--token', BOOTSTRAP];
      const exported = await flagpole(['export', '--namespaces', 'staging', ...remote], {});
      expect(exported.code).toBe(0);
      const local = await flagpole(['export', '--namespaces', 'staging'], env);
      expect(exported.stdout).toBe(local.stdout);

      const file = join(dir, 'remote.yml');
      writeFileSync(file, exported.stdout.replace('key: staging', 'key: remote'));
      const imported = await flagpole(['import', file, ...remote], {});
      expect(imported.stderr).toContain('namespace remote (created): 3 flags and 2 segments created');
      const api = client(fp.url, bearer(BOOTSTRAP));
      const evaluation = { namespaceKey: 'remote', flagKey: 'checkout', entityId: 'u1', context: { plan: 'pro', beta: 'true' } };
      expect((await api.post('/evaluate/v1/variant', evaluation)).body).toMatchObject({ match: true, variantKey: 'express' });

      const refused = await flagpole(['export', '--namespaces', 'staging', '--address', fp.url], {});
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('401 request was not authenticated');
      // A token may begin with a dash: still the value of --token, not an option.
      const dashed = await flagpole(['export', '--namespaces', 'staging', '--address', fp.url, '-t', '-Zm9v'], {});
      expect({ code: dashed.code, unauthenticated: dashed.stderr.includes('401') }).toEqual({ code: 1, unauthenticated: true });
    });

    it('limits a namespaced token to its namespace', async () => {
      const api = client(fp.url);
      const { clientToken } = await createToken(api, { name: 'staging only', namespaceKey: 'staging' });
      const remote = ['--address', fp.url, '--token', clientToken];
      expect((await flagpole(['export', '--namespaces', 'staging', ...remote], {})).code).toBe(0);
      const foreign = await flagpole(['export', '--namespaces', 'remote', ...remote], {});
      expect(foreign.code).toBe(1);
      expect(foreign.stderr).toContain('401');
      const file = join(dir, 'foreign.yml');
      writeFileSync(file, 'namespace: remote\nflags:\n- key: sneaky\n  name: Sneaky\n');
      expect((await flagpole(['import', file, ...remote], {})).code).toBe(1);
      const flags = (await api.get('/api/v1/namespaces/remote/flags', undefined, bearer(BOOTSTRAP))).body.flags;
      expect(flags.map((f: { key: string }) => f.key)).not.toContain('sneaky');
    });
  });
});
