import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { readingEnvironment, withoutHeapSize } from './document-reading.service';

describe('the reading process\'s NODE_OPTIONS', () => {
  it('drop a heap size (any spelling, or as a share of memory), so that limits.import_read_heap_mb is the one that counts', () => {
    expect(withoutHeapSize('--max-old-space-size=4096 --enable-source-maps')).toBe('--enable-source-maps');
    expect(withoutHeapSize(' --max_old_space_size=512  --trace-warnings ')).toBe('--trace-warnings');
    expect(withoutHeapSize('--max-old-space-size-percentage=50 --no-warnings')).toBe('--no-warnings');
  });

  it('are empty when there were none', () => {
    expect(withoutHeapSize(undefined)).toBe('');
  });
});

describe('the reading process\'s environment', () => {
  it('holds no FLAGPOLE_ variable or other secret, only what Node and ts-node read', () => {
    const env = readingEnvironment({
      PATH: '/usr/bin', TZ: 'UTC', TS_NODE_PROJECT: 'tsconfig.json', NODE_OPTIONS: '--max-old-space-size=400 --no-warnings',
      FLAGPOLE_DB_URL: 'postgres://app:secret@db/flags', FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: 'boot', AWS_SECRET_ACCESS_KEY: 'k',
    });
    expect(env).toEqual({ PATH: '/usr/bin', TZ: 'UTC', TS_NODE_PROJECT: 'tsconfig.json', NODE_OPTIONS: '--no-warnings' });
  });
});

/** The packages a fresh process has loaded after requiring `modules`, under ts-node as the reading process runs in tests. */
function packagesLoadedBy(modules: string[]): Set<string> {
  const script = `${modules.map((m) => `require(${JSON.stringify(m)});`).join('')}
    process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const loaded: string[] = JSON.parse(execFileSync(process.execPath, ['--require', 'ts-node/register/transpile-only', '-e', script], { encoding: 'utf8' }));
  return new Set(loaded.map((m) => /node_modules\/((@[^/]+\/)?[^/]+)/.exec(m)?.[1]).filter((p): p is string => !!p));
}

describe('the reading process\'s modules', () => {
  it('are the reader\'s alone: no framework, validator or ORM is loaded into it', () => {
    const loader = packagesLoadedBy([]);
    const reader = [...packagesLoadedBy([join(__dirname, 'document-reading.child.ts')])].filter((p) => !loader.has(p));
    expect(reader.sort()).toEqual(['js-yaml', 'yaml']);
  });
});
