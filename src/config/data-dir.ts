import { resolve } from 'node:path';

/** Where Flagpole keeps its files (the default SQLite database): `FLAGPOLE_DATA_DIR`, else `./data`, against `cwd`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  return resolve(cwd, env.FLAGPOLE_DATA_DIR || 'data');
}
