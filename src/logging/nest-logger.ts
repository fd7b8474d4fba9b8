/**
 * Nest's LoggerService over pino: every `new Logger('Context').log(…)` in the code, and Nest's own messages, become
 * pino lines with a `context` field. Nest's start-up chatter (one line per module and route) is demoted to debug so
 * that an INFO start-up shows what matters: where Flagpole listens and what it uses.
 */
import type { LoggerService } from '@nestjs/common';
import type { Level } from 'pino';
import type { Logger } from './logger';

const FRAMEWORK_CONTEXTS = new Set(['NestFactory', 'NestApplication', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

export class NestLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /**
   * Nest passes the context last (`logger.log(msg, context)`), and for errors a stack before it
   * (`logger.error(msg, stack, context)`).
   */
  private write(level: Level, message: unknown, params: unknown[]): void {
    const context = params.length > 0 && typeof params[params.length - 1] === 'string' ? (params.pop() as string) : undefined;
    if (level === 'info' && context && FRAMEWORK_CONTEXTS.has(context)) level = 'debug';
    if (!this.pino.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    const stack = level === 'error' || level === 'fatal' ? params.find((p) => typeof p === 'string') : undefined;
    if (stack) fields.stack = stack;
    if (message instanceof Error) {
      fields.stack ??= message.stack;
      this.pino[level](fields, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level]({ ...fields, ...(message as object) });
    } else {
      this.pino[level](fields, String(message));
    }
  }
}
