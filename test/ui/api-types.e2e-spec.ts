/**
 * The web UI's API types are generated from the OpenAPI document Flagpole serves at `/docs-json` (openapi-typescript),
 * never copied by hand: ui/src/api/openapi.d.ts must be what the generator makes of the running server's document, so
 * a change to a DTO that the UI does not follow fails here (and then `tsc -p ui/tsconfig.json` shows where).
 * `UPDATE_UI_API_TYPES=1` rewrites the file.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { ROOT } from './support/browser';

const GENERATED = join(ROOT, 'ui', 'src', 'api', 'openapi.d.ts');
const HEADER =
  '// Generated from the OpenAPI document Flagpole serves at /docs-json by openapi-typescript; do not edit.\n' +
  '// Rewrite it with `UPDATE_UI_API_TYPES=1 npx jest test/ui/api-types` (test/ui/api-types.e2e-spec.ts checks it).\n';

describe('the UI API types', () => {
  let fp: RunningFlagpole;
  beforeAll(async () => {
    // Analytics on: its routes are mounted (and documented) only then, and the UI reads them when they are.
    fp = await startFlagpole({ FLAGPOLE_ANALYTICS_ENABLED: 'true' });
  });
  afterAll(() => fp?.close());

  it('are what openapi-typescript makes of the served OpenAPI document', async () => {
    const document = (await client(fp.url).get('/docs-json')).body;
    // The version is the package's: it would make every release rewrite the file.
    document.info.version = '';
    const dir = mkdtempSync(join(tmpdir(), 'flagpole-openapi-'));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
    const cli = join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
    execFileSync(process.execPath, [cli, join(dir, 'openapi.json'), '--output', join(dir, 'openapi.d.ts')], { stdio: 'pipe' });
    const generated = HEADER + readFileSync(join(dir, 'openapi.d.ts'), 'utf8');
    if (process.env.UPDATE_UI_API_TYPES === '1') writeFileSync(GENERATED, generated);
    expect(readFileSync(GENERATED, 'utf8')).toBe(generated);
  });
});
