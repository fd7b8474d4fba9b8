/**
 * The write worker's thread runs at a lower scheduling priority than the rest of the process
 * (`server.write_worker_nice`, a Linux nice value, 10 by default): when it and the evaluations want the same core,
 * the kernel runs the evaluations first, and the worker's writes take the time they leave over. Measured on 2 cores
 * (docs/deployment.md, Measured), Node 20: a 20-flag namespace's p99 beside 10 writes/s to a 10,000-flag one, three
 * alternating runs each, 4.2–5.4 ms at nice 0 and 3.5–4.6 ms at nice 10 (÷ alone 1.90–2.25 against 1.02–1.54), the
 * writes' own p50 the same (12.9–13.6 against 11.9–14.1 ms); on Node 24 no difference showed through the noise.
 *
 * Linux only, and no library does it: Node's `os.setPriority` takes a process id, and Linux's setpriority(2) given a
 * thread's id (read from /proc/thread-self) changes that thread alone. Raising a nice value needs no privilege.
 * Threads the worker starts after this inherit it; libuv's thread pool and V8's helper threads already run (the main
 * thread started them) and keep the process's priority.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** Lowers the calling thread's priority to `nice` (0 leaves it); what it did, or why it could not, for the log. */
export function lowerThreadPriority(nice: number): string {
  if (nice === 0) return 'at the process\'s priority (server.write_worker_nice 0)';
  let thread: number;
  try {
    thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return 'at the process\'s priority: threads have no priority of their own here (no /proc/thread-self)';
  }
  try {
    setPriority(thread, Math.max(getPriority(thread), nice));
    return `at nice ${getPriority(thread)} (thread ${thread})`;
  } catch (e) {
    return `at the process's priority: nice ${nice} refused (${(e as Error).message})`;
  }
}
