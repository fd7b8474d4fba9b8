/**
 * Starts a real Flagpole (the full AppModule on Fastify) on a loopback port with a fresh database, for end-to-end
 * tests over real HTTP. The dialect comes from FLAGPOLE_TEST_DIALECT (sqlite by default; see dialects.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app';
import { loadConfiguration } from '../../src/configuration';
import { GrpcHealthServer } from '../../src/health/grpc-health.server';
import { dropDatabase, freshDatabaseUrl } from './databases';

export interface RunningFlagpole {
  url: string;
  /** The gRPC health service's port (the harness asks for any free one unless FLAGPOLE_SERVER_GRPC_PORT is given). */
  grpcPort: number;
  app: NestFastifyApplication;
  close(): Promise<void>;
}

/** `env` holds FLAGPOLE_* overrides, as an operator would set them. */
export async function startFlagpole(env: Record<string, string> = {}): Promise<RunningFlagpole> {
  const dir = mkdtempSync(join(tmpdir(), 'flagpole-e2e-'));
  const dbUrl = env.FLAGPOLE_DB_URL ?? (await freshDatabaseUrl(dir));
  const config = loadConfiguration({
    argv: [],
    env: { FLAGPOLE_LOG_LEVEL: 'ERROR', FLAGPOLE_SERVER_HOST: '127.0.0.1', FLAGPOLE_SERVER_GRPC_PORT: '0', FLAGPOLE_DATA_DIR: dir, ...env, FLAGPOLE_DB_URL: dbUrl },
  });
  const app = await createApp(config);
  try {
    await app.listen(0, '127.0.0.1');
  } catch (e) {
    // A start refused by a start-up hook: release the database connections (the process would exit here).
    await app.close().catch(() => undefined);
    throw e;
  }
  const address = app.getHttpServer().address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    grpcPort: app.get(GrpcHealthServer).port,
    app,
    async close() {
      await app.close();
      if (!env.FLAGPOLE_DB_URL) await dropDatabase(dbUrl);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** One HTTP call; the body is parsed as JSON when it is JSON. */
export async function http<T = any>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResult<T>> {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** A bound client: `api.get('/api/v1/namespaces')`. */
export function client(base: string, defaults: Record<string, string> = {}) {
  const call = (method: string) => (path: string, body?: unknown, headers: Record<string, string> = {}) =>
    http(base, method, path, body, { ...defaults, ...headers });
  return { get: call('GET'), post: call('POST'), put: call('PUT'), delete: call('DELETE'), patch: call('PATCH') };
}
