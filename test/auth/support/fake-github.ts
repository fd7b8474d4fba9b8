/**
 * A loopback stand-in for GitHub's OAuth web flow (`/login/oauth/access_token`) and the REST API calls Flagpole
 * makes (`/user`, `/user/orgs`, `/user/teams`), served under `/api/v3` as GitHub Enterprise does, so that the test
 * also proves `api_url` is used. Codes are single-use; wrong client credentials or codes get GitHub's 200 error body.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface FakeGithubUser {
  id: number;
  login: string;
  name?: string;
  email?: string;
  orgs?: string[];
  /** `org/team-slug` */
  teams?: string[];
}

export interface FakeGithub {
  url: string;
  apiUrl: string;
  /** What a user's browser would bring back after approving the app. */
  issueCode(login: string): string;
  close(): Promise<void>;
}

export async function startFakeGithub(clientId: string, clientSecret: string, users: FakeGithubUser[]): Promise<FakeGithub> {
  const codes = new Map<string, string>();
  const tokens = new Map<string, FakeGithubUser>();
  const byLogin = new Map(users.map((u) => [u.login, u]));

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url!, 'http://x');
    const json = (status: number, body: unknown) => {
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const form = new URLSearchParams(Buffer.concat(chunks).toString());
      const login = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret || !login) {
        return json(200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
      }
      const token = `gho_${randomBytes(16).toString('hex')}`;
      tokens.set(token, byLogin.get(login)!);
      return json(200, { access_token: token, token_type: 'bearer', scope: 'read:org' });
    }
    const user = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!url.pathname.startsWith('/api/v3/')) return json(404, { message: 'Not Found' });
    if (!user || req.headers.accept !== 'application/vnd.github+json') return json(401, { message: 'Bad credentials' });
    switch (url.pathname) {
      case '/api/v3/user':
        return json(200, {
          id: user.id, login: user.login, name: user.name ?? null, email: user.email ?? null,
          avatar_url: `https://avatars.example/${user.id}`,
        });
      case '/api/v3/user/orgs':
        return json(200, (user.orgs ?? []).map((login) => ({ login })));
      case '/api/v3/user/teams':
        return json(200, (user.teams ?? []).map((t) => ({ slug: t.split('/')[1], organization: { login: t.split('/')[0] } })));
      default:
        return json(404, { message: 'Not Found' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    apiUrl: `${url}/api/v3`,
    issueCode(login) {
      const code = randomBytes(10).toString('hex');
      codes.set(code, login);
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
