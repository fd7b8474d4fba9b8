/**
 * The standard gRPC health service (`grpc.health.v1.Health`, Check and Watch) on `server.host`:`server.grpc_port`,
 * for Kubernetes' native gRPC probes and grpc-health-probe. Service `""` (the whole server, as Flipt registers it)
 * follows HealthService's `serving`: SERVING when started and the database answers, NOT_SERVING during a database
 * outage and from the start of shutdown. Any other service name is NOT_FOUND. With `server.protocol: https` the
 * port uses the same certificate as HTTPS, as Flipt's does.
 *
 * Watch streams are unauthenticated and stay open until the client leaves, so at most `limits.max_grpc_watch_streams`
 * are open at once; past it a Watch ends at once with RESOURCE_EXHAUSTED (Check is unaffected).
 */
import { readFileSync } from 'node:fs';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig, LogLevel, ServerConfig } from '../config/config.types';
import { rootLogger } from '../logging/logger';
import { HealthService } from './health.service';
import { ProcessDuty, type ProcessDutyProvider } from '../common/process-duty';

/** The overall service name: what a probe asks for when it names none. */
export const OVERALL = '';
const SHUTDOWN_WAIT_MS = 1000;

@ProcessDuty()
@Injectable()
export class GrpcHealthServer implements ProcessDutyProvider, OnApplicationShutdown {
  private readonly logger = new Logger('gRPC');
  private readonly health = new HealthImplementation({ [OVERALL]: 'NOT_SERVING' });
  private status: 'SERVING' | 'NOT_SERVING' = 'NOT_SERVING';
  private server: grpc.Server | null = null;
  private bound = 0;
  private unsubscribe: () => void = () => undefined;

  constructor(
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
    private readonly state: HealthService,
  ) {
    routeGrpcLogs(config);
  }

  /** The port bound (the configured one, or the one the system chose for `server.grpc_port: 0`); 0 before start. */
  get port(): number {
    return this.bound;
  }

  async start(): Promise<void> {
    const { host, grpcPort } = this.config.server;
    const server = new grpc.Server(serverOptions(this.config.server));
    this.health.addToServer(cappingWatches(server, this.config.limits.maxGrpcWatchStreams));
    const address = `${host.includes(':') ? `[${host}]` : host}:${grpcPort}`;
    this.bound = await new Promise<number>((resolve, reject) =>
      server.bindAsync(address, credentials(this.config.server), (err, port) =>
        err ? reject(new Error(`gRPC health server cannot listen on ${address}: ${err.message}`)) : resolve(port),
      ),
    );
    this.server = server;
    this.setServing(this.state.isServing());
    this.unsubscribe = this.state.onChange((serving) => this.setServing(serving));
    this.logger.debug(`gRPC health service listening on ${host}:${this.bound}`);
  }

  async onApplicationShutdown(): Promise<void> {
    this.unsubscribe();
    this.setServing(false);
    const server = this.server;
    if (!server) return;
    this.server = null;
    // Watch streams never end by themselves: after a short wait for unary calls, cancel what is left.
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, SHUTDOWN_WAIT_MS);
      server.tryShutdown(() => {
        clearTimeout(force);
        resolve();
      });
    });
  }

  /** Only changes are set: every setStatus is sent to every Watch stream, changed or not. */
  private setServing(serving: boolean): void {
    const status = serving ? 'SERVING' : 'NOT_SERVING';
    if (status === this.status) return;
    this.status = status;
    this.health.setStatus(OVERALL, status);
  }
}

type WatchCall = grpc.ServerWritableStream<{ service: string }, { status: string }>;

/**
 * The server as grpc-health-check sees it, with its Watch handler wrapped: streams past `max` are refused, and a
 * Watch of a service other than the overall one is answered SERVICE_UNKNOWN without reaching grpc-health-check,
 * which would keep a watcher set per name asked, forever.
 */
function cappingWatches(server: grpc.Server, max: number): Pick<grpc.Server, 'addService'> {
  let open = 0;
  return {
    addService(definition: grpc.ServiceDefinition, implementation: grpc.UntypedServiceImplementation): void {
      const watch = implementation.watch as (call: WatchCall) => void;
      server.addService(definition, {
        ...implementation,
        watch: (call: WatchCall) => {
          if (open >= max) {
            call.emit('error', { code: grpc.status.RESOURCE_EXHAUSTED, details: `too many health Watch streams (limits.max_grpc_watch_streams ${max})` });
            return;
          }
          open++;
          let counted = true;
          const release = () => {
            if (counted) open--;
            counted = false;
          };
          call.once('cancelled', release);
          call.once('finish', release);
          if (call.request.service !== OVERALL) {
            call.write({ status: 'SERVICE_UNKNOWN' });
            return;
          }
          watch(call);
        },
      });
    },
  };
}

function credentials(server: ServerConfig): grpc.ServerCredentials {
  if (server.protocol !== 'https') return grpc.ServerCredentials.createInsecure();
  return grpc.ServerCredentials.createSsl(null, [{ cert_chain: readFileSync(server.certFile), private_key: readFileSync(server.certKey) }], false);
}

/** Flipt's `server.grpc_conn_*` keys, where set (0 = grpc's default, unlimited). */
function serverOptions(server: ServerConfig): grpc.ServerOptions {
  const options: grpc.ServerOptions = {};
  if (server.grpcConnMaxIdleTime > 0) options['grpc.max_connection_idle_ms'] = server.grpcConnMaxIdleTime;
  if (server.grpcConnMaxAge > 0) options['grpc.max_connection_age_ms'] = server.grpcConnMaxAge;
  if (server.grpcConnMaxAgeGrace > 0) options['grpc.max_connection_age_grace_ms'] = server.grpcConnMaxAgeGrace;
  return options;
}

const GRPC_VERBOSITY: Record<LogLevel, grpc.logVerbosity> = {
  DEBUG: grpc.logVerbosity.DEBUG,
  INFO: grpc.logVerbosity.INFO,
  WARN: grpc.logVerbosity.ERROR,
  ERROR: grpc.logVerbosity.ERROR,
  DPANIC: grpc.logVerbosity.NONE,
  PANIC: grpc.logVerbosity.NONE,
  FATAL: grpc.logVerbosity.NONE,
};

/** grpc-js logs through console.error by default; `log.grpc_level` sets how much of it reaches Flagpole's log. */
function routeGrpcLogs(config: FlagpoleConfig): void {
  const log = rootLogger(config.log).child({ context: 'grpc-js' });
  const line = (args: unknown[]) => args.map(String).join(' ');
  grpc.setLogger({
    error: (...args: unknown[]) => log.error(line(args)),
    info: (...args: unknown[]) => log.info(line(args)),
    debug: (...args: unknown[]) => log.debug(line(args)),
  } as unknown as Partial<Console>);
  grpc.setLogVerbosity(GRPC_VERBOSITY[config.log.grpcLevel]);
}
