/**
 * The same data served two ways, for suites that must pass on both: built through the API on a database
 * (`storage.type: database`), or built there, exported as Flipt-format files, and served by a Flagpole with
 * `storage.type: local` reading those files (the database only a mirror of them).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, http, startFlagpole, type RunningFlagpole } from './flagpole';

export type Storage = 'database' | 'files';
export const STORAGES: Storage[] = ['database', 'files'];

type Api = ReturnType<typeof client>;

/**
 * A Flagpole holding what `build` made through the API. With 'files', `build` runs on a scratch instance, every
 * namespace is exported to `<namespace>.features.yml`, and the returned instance serves those files read-only.
 */
export async function startWithData(storage: Storage, build: (api: Api) => Promise<unknown>, env: Record<string, string> = {}): Promise<RunningFlagpole> {
  if (storage === 'database') {
    const fp = await startFlagpole(env);
    await build(client(fp.url));
    return fp;
  }
  const scratch = await startFlagpole();
  const dir = mkdtempSync(join(tmpdir(), 'flagpole-files-'));
  try {
    const api = client(scratch.url);
    await build(api);
    for (const { key } of (await api.get('/api/v1/namespaces')).body.namespaces as Array<{ key: string }>) {
      const exported = await http(scratch.url, 'GET', `/api/v1/namespaces/${key}/export`);
      if (exported.status !== 200) throw new Error(`export of ${key}: ${exported.status} ${exported.text}`);
      writeFileSync(join(dir, `${key}.features.yml`), exported.text);
    }
  } finally {
    await scratch.close();
  }
  const fp = await startFlagpole({ ...env, FLAGPOLE_STORAGE_TYPE: 'local', FLAGPOLE_STORAGE_LOCAL_PATH: dir });
  return {
    ...fp,
    async close() {
      await fp.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
