/**
 * The process's pino logger, built from `log.*`: level, destination (`log.file`, else standard error, as Flipt's zap
 * logger), and encoding — `json` lines with Flipt's configurable keys (`log.keys`: `T`, `L`, `M` by default), or
 * `console`, tab-separated human-readable lines like zap's console encoder.
 */
import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import type { LogConfig, LogLevel } from '../config/config.types';
import { consoleStream } from './console-stream';

export type { Logger } from 'pino';

/** zap's DPANIC and PANIC sit between error and fatal; pino has nothing between, so they show fatal only. */
const PINO_LEVEL: Record<LogLevel, Level> = {
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
  DPANIC: 'fatal',
  PANIC: 'fatal',
  FATAL: 'fatal',
};

const loggers = new WeakMap<LogConfig, Logger>();

/** One logger per loaded configuration, so main.ts and the application write through the same destination. */
export function rootLogger(log: LogConfig): Logger {
  let logger = loggers.get(log);
  if (!logger) {
    logger = createLogger(log);
    loggers.set(log, logger);
  }
  return logger;
}

/** `destination` replaces the file / standard error (tests read lines from it). */
export function createLogger(log: LogConfig, destination?: DestinationStream): Logger {
  const sink = destination ?? pino.destination({ dest: log.file || 2, sync: true, mkdir: Boolean(log.file), append: true });
  if (log.encoding === 'console') {
    return pino(
      { level: PINO_LEVEL[log.level], base: undefined, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } },
      consoleStream(sink),
    );
  }
  const { time, level, message } = log.keys;
  return pino(
    {
      level: PINO_LEVEL[log.level],
      base: undefined,
      messageKey: message || 'M',
      // zap leaves a field out when its key is empty.
      timestamp: time ? () => `,${JSON.stringify(time)}:"${new Date().toISOString()}"` : false,
      formatters: { level: (label) => (level ? { [level]: label.toUpperCase() } : {}) },
    },
    sink,
  );
}
