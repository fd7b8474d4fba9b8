/** The messages between the main thread and the write worker (write-worker.service.ts, src/write-worker.main.ts). */

/** A write the main thread received, as the worker's Fastify injects it. */
export interface WriteRequest {
  kind: 'request';
  id: number;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  payload: string | undefined;
  remoteAddress: string;
}

export type ToWorker = WriteRequest | { kind: 'close' };

export type ToMain =
  | { kind: 'ready' }
  | { kind: 'answer'; id: number; status: number; headers: Record<string, string | string[] | number | undefined>; body: Uint8Array }
  /** A write the worker could not run at all (Fastify's inject failed): the main thread's error filter answers. */
  | { kind: 'failed'; id: number; message: string }
  /** A committed change (storage/changes.ts), before the answer of the write that made it. */
  | { kind: 'change'; topic: string; key: string; change: unknown }
  /** An audit event of a write (stored by the worker), for the main thread's sinks. */
  | { kind: 'audit'; event: unknown; subject: unknown }
  /** The worker's stored audit trail after an attempt to store a batch, for the main thread's metrics. */
  | { kind: 'audit-store'; waiting: number; dropped: number; reason: string };
