/**
 * Who may read flags' lifecycle (issue 40): with `authentication.required` a credential is needed and a namespaced
 * token reads its own namespace only (Flipt's 401 elsewhere, as on every namespaced route); with
 * `authorization.required`, `read` on flags in the namespace (403 otherwise).
 */
import { bearer, BOOTSTRAP, createToken, expectUnauthenticated, TOKEN_REQUIRED } from '../auth/support';
import { DENIED, startAuthorized, tokenWithRole } from '../authorization/support';
import { buildNamespace } from '../evaluation/fixtures';
import { N, ok } from '../management/support';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';

jest.setTimeout(120_000);

const FLAG = { key: 'f', enabled: true };
const routes = (ns: string) => [`${N(ns)}/flags/f/lifecycle`, `${N(ns)}/flag-health`, `${N(ns)}/flags?stale=true`];

describe('flag lifecycle with authentication required', () => {
  let fp: RunningFlagpole;

  beforeAll(async () => {
    fp = await startFlagpole(TOKEN_REQUIRED);
    const admin = client(fp.url, bearer(BOOTSTRAP));
    await buildNamespace(admin, { key: 'team', flags: [FLAG] });
    await buildNamespace(admin, { key: 'other', flags: [FLAG] });
  });

  afterAll(() => fp?.close());

  it('refuses a request without a credential, and a namespaced token outside its namespace', async () => {
    const anonymous = client(fp.url);
    for (const path of routes('team')) expectUnauthenticated(await anonymous.get(path));
    const admin = client(fp.url, bearer(BOOTSTRAP));
    const scoped = client(fp.url, bearer((await createToken(admin, { namespaceKey: 'team' })).clientToken));
    for (const path of routes('team')) ok(await scoped.get(path));
    for (const path of routes('other')) expectUnauthenticated(await scoped.get(path));
  });
});

describe('flag lifecycle with authorization required', () => {
  let fp: RunningFlagpole & { admin: ReturnType<typeof client> };

  beforeAll(async () => {
    fp = await startAuthorized();
    await buildNamespace(fp.admin, { key: 'production', flags: [FLAG] });
  });

  afterAll(() => fp?.close());

  it.each([
    ['admin', true],
    ['viewer', true],
    ['production-editor', true],
    ['evaluator', false],
    ['team-editor', false],
    ['nobody', false],
  ])('%s: read on flags in the namespace is %s', async (role, allowed) => {
    const api = client(fp.url, bearer(await tokenWithRole(fp.admin, role)));
    for (const path of routes('production')) {
      const r = await api.get(path);
      if (allowed) expect({ path, status: r.status }).toEqual({ path, status: 200 });
      else expect({ path, status: r.status, body: r.body }).toEqual({ path, status: 403, body: DENIED });
    }
  });
});
