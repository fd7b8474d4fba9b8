// Jest globalSetup: says, before the run, which database dialects this run covers and which it leaves out — and,
// for those left out, whether their server answers (so `npm test` on a machine without PostgreSQL or MySQL says
// plainly that they were skipped because no server answered). Plain JS: globalSetup runs outside ts-jest.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { createConnection } = require('node:net');
const { SQLITE_ONLY } = require('./sqlite-only');

const SERVERS = {
  postgres: process.env.FLAGPOLE_TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  mysql: process.env.FLAGPOLE_TEST_MYSQL_URL || 'mysql://root@127.0.0.1:3306/mysql',
};

function answers(url) {
  const { hostname, port } = new URL(url);
  const defaultPort = url.startsWith('mysql') ? 3306 : 5432;
  return new Promise((resolve) => {
    const socket = createConnection(Number(port || defaultPort), hostname);
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('connect', () => done(true));
    socket.on('error', () => done(false));
  });
}

module.exports = async function dialectReport() {
  const dialect = process.env.FLAGPOLE_TEST_DIALECT || 'sqlite';
  const lines = [`end-to-end suites run on: ${dialect}`];
  const missing = SQLITE_ONLY.filter((path) => !existsSync(join(__dirname, '..', '..', path)));
  if (missing.length) throw new Error(`test/support/sqlite-only.js names suites that do not exist: ${missing.join(', ')}`);
  if (dialect !== 'sqlite') lines.push(`  ${SQLITE_ONLY.length} suites that do not depend on the dialect are left out (they run on SQLite): test/support/sqlite-only.js`);
  for (const [name, url] of Object.entries(SERVERS)) {
    if (name === dialect) continue;
    const { host } = new URL(url);
    lines.push(
      (await answers(url))
        ? `  ${name}: skipped in this run (its server answers at ${host}: FLAGPOLE_TEST_DIALECT=${name} npm run test:e2e, or bash .ci/run for all)`
        : `  ${name}: skipped — no server answered at ${host}`,
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
};
