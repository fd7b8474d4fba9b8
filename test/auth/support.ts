/** Shared pieces of the authentication end-to-end tests. */
import { readFileSync } from 'node:fs';
import { client, HttpResult } from '../support/flagpole';
import { errorBody } from '../management/support';

export type Api = ReturnType<typeof client>;

/** Required mode with the static-token method and a known bootstrap token. */
export const BOOTSTRAP = 's3cret-bootstrap';
export const TOKEN_REQUIRED: Record<string, string> = {
  FLAGPOLE_AUTHENTICATION_REQUIRED: 'true',
  FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
  FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: BOOTSTRAP,
};

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Flipt's refusal: 401, code 16, the fixed message, and the WWW-Authenticate header repeating it. */
export function expectUnauthenticated(r: HttpResult): void {
  expect({ status: r.status, body: r.body }).toEqual({ status: 401, body: errorBody(16, 'request was not authenticated') });
  expect(r.headers.get('www-authenticate')).toBe('request was not authenticated');
}

export function expectNotRefused(r: HttpResult): void {
  expect({ status: r.status, body: r.body }).not.toMatchObject({ status: 401 });
}

export async function createToken(api: Api, body: Record<string, unknown> = {}, headers: Record<string, string> = bearer(BOOTSTRAP)) {
  const r = await api.post('/auth/v1/method/token', { name: 'test', ...body }, headers);
  expect({ status: r.status, body: r.body }).toMatchObject({ status: 200 });
  return r.body as { clientToken: string; authentication: { id: string; metadata: Record<string, string> } };
}

/** Set-Cookie headers of a response, one string each. */
export function setCookies(r: HttpResult): string[] {
  return r.headers.getSetCookie();
}

export function logLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` passes or `timeoutMs` runs out (then its last failure is thrown). */
export async function eventually(check: () => Promise<void> | void, timeoutMs = 10_000, everyMs = 100): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > end) throw e;
      await sleep(everyMs);
    }
  }
}

/** A GET that does not follow redirects (the login callbacks answer 302), parsed like the harness's `http`. */
export async function getWithoutRedirect(base: string, path: string, headers: Record<string, string> = {}): Promise<HttpResult> {
  const res = await fetch(base + path, { headers, redirect: 'manual' });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body, text };
}
