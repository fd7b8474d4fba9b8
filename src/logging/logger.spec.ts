import type { LogConfig } from '../config/config.types';
import { formatConsoleLine } from './console-stream';
import { createLogger } from './logger';
import { NestLogger } from './nest-logger';

function capture(overrides: Partial<LogConfig> = {}) {
  const lines: string[] = [];
  const config: LogConfig = {
    level: 'INFO',
    file: '',
    encoding: 'json',
    grpcLevel: 'ERROR',
    keys: { time: 'T', level: 'L', message: 'M' },
    ...overrides,
  };
  const logger = createLogger(config, { write: (s: string) => void lines.push(s) });
  return { logger, lines, json: () => lines.map((l) => JSON.parse(l)) };
}

describe('createLogger, json encoding', () => {
  it("writes Flipt's keys: T (ISO time), L (upper-case level), M (message)", () => {
    const { logger, json } = capture();
    logger.info({ context: 'X', n: 1 }, 'hello');
    const [line] = json();
    expect(line).toMatchObject({ L: 'INFO', M: 'hello', context: 'X', n: 1 });
    expect(new Date(line.T).toISOString()).toBe(line.T);
    expect(Object.keys(line)).toEqual(['L', 'T', 'context', 'n', 'M']);
  });

  it.each([
    [{ time: 'ts', level: 'severity', message: 'msg' }, { severity: 'WARN', msg: 'w' }, 'ts'],
    [{ time: '', level: 'L', message: 'M' }, { L: 'WARN', M: 'w' }, null],
  ])('honours log.keys %j', (keys, expected, timeKey) => {
    const { logger, json } = capture({ keys });
    logger.warn('w');
    const [line] = json();
    expect(line).toMatchObject(expected);
    if (timeKey) expect(line[timeKey]).toBeDefined();
    else expect(Object.keys(line)).toHaveLength(2);
  });

  it.each([
    ['DEBUG', ['debug', 'info', 'warn', 'error']],
    ['INFO', ['info', 'warn', 'error']],
    ['WARN', ['warn', 'error']],
    ['ERROR', ['error']],
    ['FATAL', []],
  ] as const)('level %s lets through %j', (level, expected) => {
    const { logger, json } = capture({ level });
    for (const l of ['debug', 'info', 'warn', 'error'] as const) logger[l](l);
    expect(json().map((line) => line.M)).toEqual(expected);
  });
});

describe('console encoding', () => {
  it('writes one tab-separated line: time, LEVEL, [context] message, other fields', () => {
    const { logger, lines } = capture({ encoding: 'console' });
    logger.info({ context: 'HTTP', status: 200 }, 'GET /health 200');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\tINFO\t\[HTTP\] GET \/health 200\t\{"status":200\}\n$/);
  });

  it('puts a stack on the lines below', () => {
    expect(formatConsoleLine(JSON.stringify({ time: 't', level: 'error', msg: 'boom', stack: 'Error: boom\n    at x' }))).toBe(
      't\tERROR\tboom\nError: boom\n    at x\n',
    );
  });
});

describe('NestLogger', () => {
  it('takes the last string parameter as the context, and a stack for errors', () => {
    const { logger, json } = capture();
    const nest = new NestLogger(logger);
    nest.log('started', 'Flagpole');
    nest.error('failed', 'Error: failed\n    at y', 'Storage');
    nest.warn({ reason: 'x' }, 'Health');
    expect(json()).toEqual([
      expect.objectContaining({ L: 'INFO', M: 'started', context: 'Flagpole' }),
      expect.objectContaining({ L: 'ERROR', M: 'failed', context: 'Storage', stack: 'Error: failed\n    at y' }),
      expect.objectContaining({ L: 'WARN', context: 'Health', reason: 'x' }),
    ]);
  });

  it("demotes Nest's own start-up lines to debug", () => {
    const { logger, json } = capture();
    new NestLogger(logger).log('Mapped {/health, GET} route', 'RouterExplorer');
    expect(json()).toEqual([]);
  });
});
