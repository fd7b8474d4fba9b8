/**
 * The write worker (`server.write_worker`): a second Flagpole application in a worker thread, with its own
 * database connection, that answers the REST API writes the main thread hands it (write-worker.service.ts) through
 * Fastify's `inject`, so with the same authentication, validation, errors and audit as on the main thread. It
 * stores its writes' audit events itself; its committed changes, the events (for the sinks) and its stored trail's
 * backlog go back to the main thread. It listens on no port and starts no process duties (app.module.ts). An entry
 * point beside main.ts: like it, it assembles the whole application.
 */
import 'reflect-metadata';
import { parentPort, workerData } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import { createApp } from './app';
import { AuditTrail } from './audit/audit-trail.service';
import { loadConfiguration } from './configuration';
import { rootLogger } from './logging/logger';
import { NestLogger } from './logging/nest-logger';
import { Changes } from './storage/changes';
import type { ToMain, ToWorker } from './write-worker/messages';
import { lowerThreadPriority } from './write-worker/thread-priority';

const port = parentPort!;
const send = (message: ToMain) => port.postMessage(message);

async function run(): Promise<void> {
  // The main thread's configuration, read again from the same command line, file and environment.
  const config = loadConfiguration({ argv: (workerData as { argv: string[] }).argv, env: process.env });
  Logger.overrideLogger(new NestLogger(rootLogger(config.log)));
  const priority = lowerThreadPriority(config.server.writeWorkerNice);
  const app = await createApp(config);
  await app.init();
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.ready();
  app.get(Changes).addForwarder((topic, key, change) => send({ kind: 'change', topic, key, change }), () => true);
  app.get(AuditTrail).relayTo({
    deliver: (event, subject) => send({ kind: 'audit', event, subject }),
    store: (waiting, dropped, reason) => send({ kind: 'audit-store', waiting, dropped, reason }),
  });
  port.on('message', (m: ToWorker) => {
    if (m.kind === 'close') {
      void app.close().finally(() => process.exit(0));
      return;
    }
    const { id, method, url, headers, payload, remoteAddress } = m;
    fastify.inject({ method: method as 'POST', url, headers, payload, remoteAddress }).then(
      (res) => send({ kind: 'answer', id, status: res.statusCode, headers: res.headers, body: res.rawPayload }),
      (e: Error) => send({ kind: 'failed', id, message: e.stack ?? e.message }),
    );
  });
  new Logger('WriteWorker').log(`write worker thread ${priority}`);
  send({ kind: 'ready' });
}

run().catch((e: Error) => {
  console.error(e.stack ?? e.message);
  process.exit(1);
});
