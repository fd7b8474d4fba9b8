/**
 * Shown when authentication is required and the browser has no credential. One button per enabled browser login
 * (each OIDC provider, GitHub): the server answers the provider's URL and the browser goes there; the provider sends
 * it back to Flagpole's callback, which sets the session cookie and redirects to the UI. When static tokens are
 * enabled, a token can be pasted instead (kept for this tab only).
 */
import { useState, type FormEvent } from 'react';
import { authorize } from '../api/auth';
import { messageOf } from '../api/client';
import type { AuthMethod } from '../api/types';
import { ErrorMessage } from '../components/error-message';
import { Field } from '../components/field';
import { useSession } from '../session/session';

interface BrowserLogin {
  id: string;
  label: string;
  start(): ReturnType<typeof authorize>;
}

function browserLogins(methods: AuthMethod[]): BrowserLogin[] {
  const logins: BrowserLogin[] = [];
  for (const m of methods) {
    if (!m.enabled || !m.sessionCompatible) continue;
    if (m.method === 'METHOD_OIDC') {
      for (const provider of Object.keys(m.metadata?.providers ?? {})) {
        logins.push({ id: `oidc-${provider}`, label: `Sign in with ${titleCase(provider)}`, start: () => authorize('oidc', provider) });
      }
    }
    if (m.method === 'METHOD_GITHUB') logins.push({ id: 'github', label: 'Sign in with GitHub', start: () => authorize('github') });
  }
  return logins;
}

const titleCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function LoginPage({ methods, notice }: { methods: AuthMethod[]; notice?: string }) {
  const { signInWithToken } = useSession();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const [token, setToken] = useState('');
  const logins = browserLogins(methods);
  const tokensEnabled = methods.some((m) => m.method === 'METHOD_TOKEN' && m.enabled);

  const start = async (login: BrowserLogin) => {
    setBusy(login.id);
    setError(undefined);
    try {
      const { authorizeUrl } = await login.start();
      window.location.assign(authorizeUrl);
    } catch (e) {
      setError(messageOf(e));
      setBusy(undefined);
    }
  };

  const useToken = async (e: FormEvent) => {
    e.preventDefault();
    if (!token.trim()) return setError('Paste a client token first.');
    setBusy('token');
    setError(await signInWithToken(token));
    setBusy(undefined);
  };

  return (
    <main className="login" id="main">
      <div className="login-card">
        <div className="login-brand">
          <img src="./favicon.svg" alt="" width={32} height={32} />
          <h1>Sign in to Flagpole</h1>
        </div>
        {notice && <p className="notice-inline" role="status">{notice}</p>}
        <ErrorMessage error={error} />
        {logins.length > 0 && (
          <ul className="login-methods">
            {logins.map((l) => (
              <li key={l.id}>
                <button type="button" className="primary wide" disabled={busy !== undefined} onClick={() => void start(l)}>
                  {busy === l.id ? 'Redirecting…' : l.label}
                </button>
              </li>
            ))}
          </ul>
        )}
        {tokensEnabled && (
          <form onSubmit={useToken} className="token-login">
            {logins.length > 0 && <p className="divider">or</p>}
            <Field label="Client token" hint="A static token, kept in this browser tab only until you sign out or close it.">
              {(p) => (
                <input {...p} type="password" autoComplete="off" spellCheck={false} value={token} onChange={(e) => setToken(e.target.value)} />
              )}
            </Field>
            <button type="submit" className={logins.length ? 'wide' : 'primary wide'} disabled={busy !== undefined}>
              {busy === 'token' ? 'Checking…' : 'Sign in with token'}
            </button>
          </form>
        )}
        {logins.length === 0 && !tokensEnabled && (
          <p>
            Authentication is required, but no method the UI can use is enabled. Enable OIDC, GitHub or static tokens under{' '}
            <code>authentication.methods</code> in Flagpole's configuration.
          </p>
        )}
      </div>
    </main>
  );
}
