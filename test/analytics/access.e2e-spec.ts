/**
 * Who may read analytics: with `authentication.required` a credential is needed (Flipt's 401 without one; no
 * exclusion opens the routes); a namespaced token reads its own namespace only; with `authorization.required`,
 * `read` on flags in the namespace asked about (Flipt skips authorization here; Flagpole does not).
 */
import { bearer, BOOTSTRAP, createToken, expectUnauthenticated, TOKEN_REQUIRED } from '../auth/support';
import { DENIED, startAuthorized, tokenWithRole } from '../authorization/support';
import { buildNamespace } from '../evaluation/fixtures';
import { ok } from '../management/support';
import { TEST_DIALECT } from '../support/databases';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { ANALYTICS_ON, batchOf, countsOf, lastHour } from './support';

jest.setTimeout(120_000);

const FLAG = { key: 'f', enabled: true, variants: [{ key: 'v' }] };

describe(`analytics with authentication required (${TEST_DIALECT})`, () => {
  let fp: RunningFlagpole;

  beforeAll(async () => {
    fp = await startFlagpole({
      ...TOKEN_REQUIRED,
      ...ANALYTICS_ON,
      FLAGPOLE_AUTHENTICATION_EXCLUDE_MANAGEMENT: 'true',
      FLAGPOLE_AUTHENTICATION_EXCLUDE_EVALUATION: 'true',
    });
    await buildNamespace(client(fp.url, bearer(BOOTSTRAP)), { key: 'team', flags: [FLAG] });
    await buildNamespace(client(fp.url, bearer(BOOTSTRAP)), { key: 'other', flags: [FLAG] });
  });

  afterAll(() => fp?.close());

  it('refuses a request without a credential with 401, whatever is excluded, and answers one with a credential', async () => {
    const { from, to } = lastHour();
    const anonymous = client(fp.url);
    expectUnauthenticated(await countsOf(anonymous, 'team', 'f', from, to));
    expectUnauthenticated(await batchOf(anonymous, 'team', { flagKeys: ['f'], from, to }));
    const admin = client(fp.url, bearer(BOOTSTRAP));
    expect(ok(await countsOf(admin, 'team', 'f', from, to)).values).toHaveLength(62);
    ok(await batchOf(admin, 'team', { flagKeys: ['f'], from, to }));
  });

  it('lets a namespaced token read its own namespace only', async () => {
    const { from, to } = lastHour();
    const admin = client(fp.url, bearer(BOOTSTRAP));
    const scoped = client(fp.url, bearer((await createToken(admin, { namespaceKey: 'team' })).clientToken));
    ok(await countsOf(scoped, 'team', 'f', from, to));
    ok(await batchOf(scoped, 'team', { flagKeys: ['f'], from, to }));
    expectUnauthenticated(await countsOf(scoped, 'other', 'f', from, to));
    expectUnauthenticated(await batchOf(scoped, 'other', { flagKeys: ['f'], from, to }));
  });
});

describe(`analytics with authorization required (${TEST_DIALECT})`, () => {
  let fp: RunningFlagpole & { admin: ReturnType<typeof client> };

  beforeAll(async () => {
    fp = await startAuthorized(undefined, ANALYTICS_ON);
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
    const { from, to } = lastHour();
    const api = client(fp.url, bearer(await tokenWithRole(fp.admin, role)));
    for (const r of [await countsOf(api, 'production', 'f', from, to), await batchOf(api, 'production', { flagKeys: ['f'], from, to })]) {
      if (allowed) expect(r.status).toBe(200);
      else expect({ status: r.status, body: r.body }).toEqual({ status: 403, body: DENIED });
    }
  });
});
