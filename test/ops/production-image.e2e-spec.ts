/**
 * What the Docker image runs, without a Docker engine: the runtime stage's files (package.json, migrations/, the
 * built dist/ and production-only node_modules) in a directory of their own, started with the Dockerfile's CMD and
 * probed with its HEALTHCHECK command.
 *
 * node_modules: by default a copy of the checkout's, pruned with `npm prune --omit=dev` (seconds). With
 * FLAGPOLE_TEST_CLEAN_INSTALL=1 it is installed exactly as the image's deps stage does, `npm ci --omit=dev`
 * (about two minutes: sqlite3 compiles).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.loader';
import { client } from '../support/flagpole';
import { envOf, execForm, parseDockerfile } from './support/dockerfile';
import { check, healthClient } from './support/grpc-health-client';
import { buildOnce, FlagpoleProcess, ROOT } from './support/process';
import { TEST_DIALECT } from '../support/databases';

/** The child process uses its own SQLite file whatever the dialect under test: run it once, in the SQLite pass. */
const onSqlite = TEST_DIALECT === 'sqlite' ? describe : describe.skip;

const CLEAN_INSTALL = process.env.FLAGPOLE_TEST_CLEAN_INSTALL === '1';
jest.setTimeout(CLEAN_INSTALL ? 420_000 : 120_000);

const stages = parseDockerfile(join(ROOT, 'Dockerfile'));
const runtime = stages[stages.length - 1];
const ops = (op: string) => runtime.instructions.filter((i) => i.op === op).map((i) => i.args);

describe('Dockerfile', () => {
  it('builds in stages on a Node LTS slim image and runs as a non-root user', () => {
    expect(stages[0].from).toMatch(/^node:\$\{NODE_VERSION\}-bookworm-slim$/);
    expect(stages.map((s) => s.name)).toEqual(['base', 'toolchain', 'deps', 'build', 'runtime']);
    const deps = stages.find((s) => s.name === 'deps')!;
    expect(deps.instructions.some((i) => i.op === 'RUN' && i.args.includes('npm ci --omit=dev'))).toBe(true);
    expect(runtime.from).toBe('base'); // no compiler in the final image
    expect(ops('USER')).toEqual(['node']);
  });

  it('declares the data volume, the ports Flagpole listens on by default, and the entry command', () => {
    const defaults = loadConfig({ argv: [], env: {} });
    expect(envOf(runtime)).toMatchObject({ FLAGPOLE_DATA_DIR: '/data', NODE_ENV: 'production' });
    expect(ops('VOLUME')).toEqual(['["/data"]']);
    expect(ops('EXPOSE')).toEqual([`${defaults.server.httpPort} ${defaults.server.grpcPort}`]);
    expect(execForm(ops('CMD')[0])).toEqual(['node', 'dist/main.js']);
    expect(ops('HEALTHCHECK')[0]).toMatch(/--interval=\d+s --timeout=\d+s --start-period=\d+s --retries=\d+ CMD \[/);
  });

  it('passes a Dockerfile linter (dockerfile-utils, the Docker language server\'s rules), which does catch mistakes', () => {
    const messages = (text: string) => lintDockerfile(text).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
    expect(messages(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))).toEqual([]);
    expect(messages('FROM node:20\nWORKDIR app\ncmd ["a"]\nCMD ["b"]\n').length).toBeGreaterThanOrEqual(3);
  });
});

onSqlite('the image contents with production dependencies only', () => {
  let dir: string;
  let app: string;

  beforeAll(async () => {
    await buildOnce();
    dir = mkdtempSync(join(tmpdir(), 'flagpole-image-'));
    app = join(dir, 'app');
    for (const f of ['package.json', 'package-lock.json', '.npmrc']) cpSync(join(ROOT, f), join(app, f));
    if (CLEAN_INSTALL) {
      execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: app, stdio: 'pipe' });
    } else {
      cpSync(join(ROOT, 'node_modules'), join(app, 'node_modules'), { recursive: true, verbatimSymlinks: true });
      execFileSync('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund'], { cwd: app, stdio: 'pipe' });
    }
    cpSync(join(ROOT, 'migrations'), join(app, 'migrations'), { recursive: true });
    cpSync(join(ROOT, 'dist'), join(app, 'dist'), { recursive: true });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has no development dependency', () => {
    for (const dev of ['typescript', 'jest', 'ts-jest', '@nestjs/testing', 'autocannon']) {
      expect(existsSync(join(app, 'node_modules', dev))).toBe(false);
    }
  });

  it('starts with the CMD, serves HTTP and gRPC health, passes the HEALTHCHECK, and stops with exit 0', async () => {
    const env = { ...envOf(runtime), FLAGPOLE_DATA_DIR: join(dir, 'data') };
    const fp = new FlagpoleProcess(app, env, execForm(ops('CMD')[0]));
    try {
      await fp.ready();
      const api = client(fp.url);
      expect(await api.get('/health')).toMatchObject({ status: 200, body: { status: 'SERVING' } });
      expect((await api.get('/meta/info')).body).toMatchObject({ version: expect.any(String), commit: expect.stringMatching(/^[0-9a-f]{40}$|^$/) });
      expect((await api.get('/metrics')).status).toBe(200);
      const grpc = healthClient(fp.grpcPort);
      expect(await check(grpc)).toBe('SERVING');
      grpc.close();

      const [command, ...args] = execForm(ops('HEALTHCHECK')[0]);
      const probe = () => spawnSync(command, args, { env: { PATH: process.env.PATH, FLAGPOLE_SERVER_HTTP_PORT: String(fp.httpPort) }, timeout: 10_000 }).status;
      expect(probe()).toBe(0);

      fp.signal('SIGTERM');
      expect(await fp.exit).toMatchObject({ code: 0, signal: null });
      expect(probe()).toBe(1); // and the HEALTHCHECK notices when nothing answers
    } finally {
      fp.kill();
    }
  });
});
