import { ConnectionException } from '@mikro-orm/core';
import { isDatabaseUnreachable } from './database-unreachable';

describe('isDatabaseUnreachable', () => {
  const coded = (code: string) => Object.assign(new Error('x'), { code });
  it.each([
    ['MikroORM ConnectionException', new ConnectionException(new Error('down')), true],
    ['knex pool timeout', Object.assign(new Error('Knex: Timeout acquiring a connection'), { name: 'KnexTimeoutError' }), true],
    ['refused socket', coded('ECONNREFUSED'), true],
    ['reset socket', coded('ECONNRESET'), true],
    ['MySQL lost connection', coded('PROTOCOL_CONNECTION_LOST'), true],
    ['PostgreSQL admin shutdown', coded('57P01'), true],
    ['node-postgres dropped socket', new Error('Connection terminated unexpectedly'), true],
    ['a unique violation', coded('23505'), false],
    ['a syntax error', coded('ER_PARSE_ERROR'), false],
    ['not an error', 'down', false],
    ['null', null, false],
  ])('%s → %s', (_, e, expected) => expect(isDatabaseUnreachable(e)).toBe(expected));
});
