/**
 * `log.encoding: console`: pino writes JSON lines; this stream turns each into one readable line, laid out like zap's
 * console encoder — `time<TAB>LEVEL<TAB>[context] message<TAB>{other fields}` — with an error's stack on the lines
 * below. No pretty-printer dependency, and no worker thread: the line is written synchronously.
 */
import type { DestinationStream } from 'pino';

const OWN_FIELDS = new Set(['time', 'level', 'msg', 'context', 'stack', 'err']);

export function consoleStream(sink: DestinationStream): DestinationStream {
  return {
    write(line: string): void {
      sink.write(formatConsoleLine(line));
    },
  };
}

export function formatConsoleLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json);
  } catch {
    return json;
  }
  const context = entry.context ? `[${String(entry.context)}] ` : '';
  let out = `${String(entry.time ?? '')}\t${String(entry.level ?? '').toUpperCase()}\t${context}${String(entry.msg ?? '')}`;
  const fields: Record<string, unknown> = {};
  let any = false;
  for (const [key, value] of Object.entries(entry)) {
    if (OWN_FIELDS.has(key)) continue;
    fields[key] = value;
    any = true;
  }
  if (any) out += `\t${JSON.stringify(fields)}`;
  const stack = entry.stack ?? (entry.err as { stack?: unknown } | undefined)?.stack;
  if (typeof stack === 'string' && stack) out += `\n${stack}`;
  return `${out}\n`;
}
