/**
 * `npm start` as the README gives it, on a checkout that is already built: its prestart step finds dist/ up to date
 * and does not build again, and the server it starts answers. (The first `npm start` of a fresh clone builds: the
 * newcomer check and CI cover that path.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client } from '../support/flagpole';
import { TEST_DIALECT } from '../support/databases';
import { buildOnce, FlagpoleProcess, ROOT } from './support/process';

/** The child process uses its own SQLite file whatever the dialect under test: run it once, in the SQLite pass. */
const onSqlite = TEST_DIALECT === 'sqlite' ? describe : describe.skip;

onSqlite('npm start on a built checkout', () => {
  let dir: string;
  let server: FlagpoleProcess | undefined;

  beforeAll(async () => {
    await buildOnce();
    dir = mkdtempSync(join(tmpdir(), 'flagpole-start-'));
  }, 300_000);

  afterAll(async () => {
    // npm passes SIGTERM on to the server, which shuts down gracefully; SIGKILL would leave the server running.
    server?.signal('SIGTERM');
    await Promise.race([server?.exit, new Promise((r) => setTimeout(r, 10_000))]);
    server?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('does not build again, and serves', async () => {
    server = new FlagpoleProcess(ROOT, { FLAGPOLE_DATA_DIR: dir }, ['npm', 'start']);
    await server.ready(60_000);
    expect(server.raw).toContain('flagpole: dist/ is up to date (npm run build rebuilds it)');
    // `npm run build` would print the UI bundler's output.
    expect(server.raw.some((l) => /vite|built in/.test(l))).toBe(false);
    expect((await client(server.url).get('/health')).body).toEqual({ status: 'SERVING' });
  }, 90_000);
});
