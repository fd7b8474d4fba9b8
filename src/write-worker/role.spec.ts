import { loadConfig } from '../config/config.loader';
import { IN_WRITE_WORKER, runsInWriteWorker, startsWriteWorker } from './role';

describe('which routes the write worker runs', () => {
  it.each([
    ['POST', '/api/v1/namespaces'],
    ['PUT', '/api/v1/namespaces/:key'],
    ['DELETE', '/api/v1/namespaces/:key'],
    ['POST', '/api/v1/namespaces/:namespaceKey/flags'],
    ['PUT', '/api/v1/flags/:key'],
    ['POST', '/api/v1/namespaces/:namespaceKey/flags/:flagKey/variants'],
    ['PUT', '/api/v1/namespaces/:namespaceKey/segments/:segmentKey/constraints/:id'],
    ['PUT', '/api/v1/namespaces/:namespaceKey/flags/:flagKey/rules/order'],
    ['DELETE', '/api/v1/namespaces/:namespaceKey/flags/:flagKey/rules/:ruleId/distributions/:id'],
    ['PUT', '/api/v1/namespaces/:namespaceKey/flags/:flagKey/rollouts/:id'],
    ['POST', '/api/v1/namespaces/:namespaceKey/import'],
  ])('%s %s: the worker', (method, url) => {
    expect(runsInWriteWorker(method, url)).toBe(true);
  });

  it.each([
    ['GET', '/api/v1/namespaces/:namespaceKey/flags'],
    ['HEAD', '/api/v1/namespaces'],
    ['OPTIONS', '/api/v1/namespaces'],
    ['POST', '/api/v1/evaluate'],
    ['POST', '/api/v1/batch-evaluate'],
    ['POST', '/api/v1/namespaces/:namespaceKey/evaluate'],
    ['POST', '/api/v1/namespaces/:namespaceKey/batch-evaluate'],
    ['POST', '/evaluate/v1/boolean'],
    ['POST', '/ofrep/v1/evaluate/flags'],
    ['POST', '/auth/v1/method/token'],
    ['DELETE', '/auth/v1/tokens/:id'],
    ['GET', '/api/v1/audit/events'],
  ])('%s %s: the main thread', (method, url) => {
    expect(runsInWriteWorker(method, url)).toBe(false);
  });
});

describe('startsWriteWorker', () => {
  const config = (env: Record<string, string>) => loadConfig({ argv: [], env });

  it('only when asked for, with flag state in the database, on the main thread', () => {
    expect(IN_WRITE_WORKER).toBe(false);
    expect(startsWriteWorker(config({}))).toBe(false);
    expect(startsWriteWorker(config({ FLAGPOLE_SERVER_WRITE_WORKER: 'true' }))).toBe(true);
    expect(startsWriteWorker(config({ FLAGPOLE_SERVER_WRITE_WORKER: 'true', FLAGPOLE_STORAGE_TYPE: 'local', FLAGPOLE_STORAGE_LOCAL_PATH: '.' }))).toBe(false);
  });
});
