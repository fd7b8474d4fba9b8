/**
 * A real @grpc/grpc-js client of `grpc.health.v1.Health`, built from the service definition grpc-health-check ships
 * (the same proto every grpc-health-probe speaks).
 */
import * as grpc from '@grpc/grpc-js';
import { service } from 'grpc-health-check';

export type Status = 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';

interface HealthClient extends grpc.Client {
  check(req: { service: string }, options: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res?: { status: Status }) => void): void;
  watch(req: { service: string }): grpc.ClientReadableStream<{ status: Status }>;
}

const HealthClientConstructor = grpc.makeClientConstructor(service as unknown as grpc.ServiceDefinition, 'grpc.health.v1.Health');

export function healthClient(port: number, host = '127.0.0.1'): HealthClient {
  return new HealthClientConstructor(`${host}:${port}`, grpc.credentials.createInsecure()) as unknown as HealthClient;
}

/** Check's status, or the gRPC error code when the call fails (5 = NOT_FOUND, 14 = UNAVAILABLE). */
export function check(client: HealthClient, name = ''): Promise<Status | number> {
  return new Promise((resolve) =>
    client.check({ service: name }, { deadline: Date.now() + 3000 }, (err, res) => resolve(err ? err.code : res!.status)),
  );
}

/** A Watch stream recording every status it receives, and how it ended. */
export class Watcher {
  readonly statuses: Status[] = [];
  ended: number | 'end' | null = null;
  private readonly call: grpc.ClientReadableStream<{ status: Status }>;

  constructor(client: HealthClient, name = '') {
    this.call = client.watch({ service: name });
    this.call.on('data', (m: { status: Status }) => this.statuses.push(m.status));
    this.call.on('error', (e: grpc.ServiceError) => (this.ended = e.code));
    this.call.on('end', () => (this.ended ??= 'end'));
  }

  get last(): Status | undefined {
    return this.statuses[this.statuses.length - 1];
  }

  cancel(): void {
    this.call.cancel();
  }
}

/** Polls until `probe` holds, or fails after `ms`. */
export async function eventually(probe: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
