/**
 * Whether this thread is Flagpole's write worker (`server.write_worker`): the second application, in a worker thread,
 * that runs the REST API's writes so that their database and ORM work never holds up evaluations on the main
 * thread (docs/architecture.md, Writes). Providers with work that belongs to the process once (listening for gRPC,
 * scheduled clean-ups, the Redis change broadcast, the version poll, request logs and HTTP metrics) skip it there.
 */
import { isMainThread, workerData } from 'node:worker_threads';
import type { FlagpoleConfig } from '../config/config.types';

/** The key of the worker's `workerData` that marks it as the write worker (not a worker some library starts). */
export const WRITE_WORKER_MARK = 'flagpoleWriteWorker';

export const IN_WRITE_WORKER: boolean = !isMainThread && (workerData as Record<string, unknown> | null)?.[WRITE_WORKER_MARK] === true;

/**
 * Whether this thread starts a write worker and hands it the writes: asked for, on the main thread, and with flag
 * state in the database (with `storage.type` local or git the API's writes are refused anyway).
 */
export function startsWriteWorker(config: FlagpoleConfig): boolean {
  return config.server.writeWorker && config.storage.type === 'database' && !IN_WRITE_WORKER;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Evaluation routes that take a POST body: `/api/v1/evaluate`, `/api/v1/namespaces/{key}/batch-evaluate`, … */
const EVALUATION = /\/(batch-)?evaluate$/;

/**
 * The routes the main thread hands to the write worker: every REST API write (namespaces, flags, variants, segments,
 * constraints, rules, distributions, rollouts, imports). Evaluations (also the POSTs under `/api/v1`), reads,
 * authentication and everything else stay on the main thread.
 */
export function runsInWriteWorker(method: string, url: string): boolean {
  return !READ_METHODS.has(method) && url.startsWith('/api/v1/') && !EVALUATION.test(url);
}
