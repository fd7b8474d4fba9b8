/**
 * The log sink: one line per event. To `audit.sinks.log.file`: the event's JSON alone (`json`, also when unset), or a
 * console line — time, type:action, actor, then the event's JSON — for `console`. Without a file, into the main log
 * as an INFO entry `audit event` carrying the event, in the main log's encoding.
 *
 * The file is written asynchronously; what the disk has not taken yet waits in memory, at most `maxBytes` of it
 * (`limits.max_audit_backlog_bytes`): past that a line is dropped and counted rather than held. The main log is
 * written synchronously and holds nothing.
 */
import pino, { type Logger } from 'pino';
import type { AuditEvent } from '../audit-event';
import type { AuditSink } from './audit-sink';

export class LogSink implements AuditSink {
  readonly name = 'log';
  private readonly file: ReturnType<typeof pino.destination> | null;
  private readonly mainLog: Logger;

  constructor(
    file: string,
    private readonly encoding: 'json' | 'console',
    mainLog: Logger,
    maxBytes: number,
    dropped: (count: number, reason: string) => void,
  ) {
    this.file = file ? pino.destination({ dest: file, sync: false, mkdir: true, append: true, maxLength: maxBytes }) : null;
    this.file?.on('drop', () => dropped(1, `more than ${maxBytes} bytes waiting to be written to ${file}`));
    // A file that cannot be opened or written is reported, not fatal: the stored trail and other sinks go on.
    this.file?.on('error', (e: Error) => mainLog.error({ context: 'Audit' }, `audit log ${file}: ${e.message}`));
    // Audit entries are written whatever `log.level` is: they are a record, not diagnostics.
    this.mainLog = mainLog.child({ context: 'Audit' }, { level: 'info' });
  }

  send(event: AuditEvent): void {
    if (!this.file) {
      this.mainLog.info({ event }, 'audit event');
      return;
    }
    const json = JSON.stringify(event);
    const actor = event.metadata.actor;
    const who = actor.email ?? actor.name ?? actor.authentication;
    this.file.write(this.encoding === 'console' ? `${event.timestamp}\tINFO\taudit\t${event.type}:${event.action}\t${who}\t${json}\n` : `${json}\n`);
  }

  async close(): Promise<number> {
    if (!this.file) return 0;
    const file = this.file;
    await new Promise<void>((resolve) => {
      file.flush(() => resolve());
    }).catch(() => undefined);
    file.end();
    return 0;
  }
}
