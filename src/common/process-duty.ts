/**
 * A process duty: work a Flagpole process does for itself, once — listening for gRPC health, a periodic round (token
 * clean-up, retention, scheduled changes, the lifecycle check), a timer (the health check, the snapshot version poll,
 * the analytics flush), a hook that logs or counts the requests the process receives, the Redis change broadcast.
 *
 * A provider marks itself `@ProcessDuty()` and does that work in `start()`, not in a Nest lifecycle hook. Whether a
 * process starts its duties is decided by the application's assembly alone (app.module.ts): the server does; the write
 * worker, which answers the writes the server hands it and whose changes and audit events the server passes on, does
 * not. So no feature needs to know which process it runs in.
 */

const PROCESS_DUTY = Symbol('flagpole:process-duty');

export interface ProcessDutyProvider {
  start(): void | Promise<void>;
}

type DutyClass = abstract new (...args: never[]) => ProcessDutyProvider;

/** Marks a provider whose `start()` the server calls once at start-up, after every module is initialised. */
export function ProcessDuty(): (target: DutyClass) => void {
  return (target) => {
    Object.defineProperty(target, PROCESS_DUTY, { value: true });
  };
}

/** Whether this object is an instance of a class marked `@ProcessDuty()`. */
export function isProcessDuty(instance: unknown): instance is ProcessDutyProvider {
  if (typeof instance !== 'object' || instance === null) return false;
  const type = (instance as object).constructor as unknown as Record<symbol, unknown> | undefined;
  return type?.[PROCESS_DUTY] === true;
}
