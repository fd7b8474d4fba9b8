/**
 * Drives the real OpenID Provider of oidc-provider.mjs: starts it as a child process, and plays the browser through
 * its login and consent pages (dev interactions) with a small cookie jar and manual redirects.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface RunningProvider {
  issuer: string;
  close(): Promise<void>;
}

export async function startOidcProvider(options: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  pkceRequired?: boolean;
  /** Extra claims by login (a `groups` list, say), given with the profile scope. */
  claims?: Record<string, Record<string, unknown>>;
}): Promise<RunningProvider> {
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'oidc-provider.mjs'), JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const issuer = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`oidc-provider exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line).issuer));
  });
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Logs `login` in at the provider, starting from an authorize URL, and returns the URL the provider finally sends
 * the browser to (Flagpole's callback, with code and state).
 */
export async function loginAtProvider(authorizeUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return res;
  };
  let url = authorizeUrl;
  const origin = new URL(authorizeUrl).origin;
  for (let step = 0; step < 12; step++) {
    const res = await send(url);
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, url);
      if (next.origin !== origin) return next;
      url = next.toString();
      continue;
    }
    const html = await res.text();
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (res.status !== 200 || !prompt) throw new Error(`unexpected provider page ${res.status}: ${html.slice(0, 500)}`);
    const form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
    const submitted = await send(url, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    url = new URL(submitted.headers.get('location')!, url).toString();
  }
  throw new Error('login at the provider did not finish');
}
