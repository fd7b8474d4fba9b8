/**
 * Who is using the UI. At start the UI asks `/meta/info`: it answers when authentication is not required or the
 * browser already has a credential (session cookie, or a token pasted earlier in this tab); a 401 means the login
 * page, with the methods `/auth/v1/method` lists. Any later 401 (session expired, token deleted) brings the login
 * page back with a word of why. Signed in, it also asks what the caller may do under authorization
 * (`/auth/v1/self/permissions`, session/permissions.tsx), once, and again when a namespace appears it did not cover.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { listAuthMethods, expireSelf, getSelf } from '../api/auth';
import { ApiError, messageOf, onUnauthenticated } from '../api/client';
import { getMetaInfo, getUiSettings } from '../api/meta';
import { getPermissions, type Permissions } from '../api/permissions';
import { queryClient } from '../api/query-client';
import type { Authentication, AuthMethod, UiSettings } from '../api/types';
import { clientToken, setClientToken } from './token-store';

export type SessionState =
  | { status: 'loading' }
  | { status: 'unreachable'; message: string }
  | { status: 'login'; methods: AuthMethod[]; notice?: string }
  | {
      status: 'ready';
      required: boolean;
      /** How this browser is signed in: the session cookie, or a token pasted on the login page. */
      via: 'session' | 'token' | 'none';
      self?: Authentication;
      ui: UiSettings;
      /** Where flag state lives, and whether the API refuses writes of it (session/read-only.tsx). */
      storage: { type: string; readOnly: boolean };
      /** Evaluations are counted (`analytics.enabled`): the flag page's Analytics tab and the flags' usage column. */
      analytics: boolean;
      /** Flags' lifecycle is checked (`lifecycle.enabled`): the Lifecycle card and column, the stale filter, Flag health. */
      lifecycle: boolean;
      /**
       * What the caller may do under authorization (session/permissions.tsx); undefined when authentication is off
       * or the server could not say, and then the UI offers everything and the API has the last word.
       */
      permissions?: Permissions;
    };

interface Session {
  state: SessionState;
  /** Tries `token` as a client token; resolves to an error message when it is refused. */
  signInWithToken(token: string): Promise<string | undefined>;
  signOut(): Promise<void>;
  retry(): void;
  /** Asks for the permissions again: a namespace created since has its own. */
  refreshPermissions(): void;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

/** Whether this Flagpole counts evaluations (`/meta/info`'s `analytics.enabled`). */
export function useAnalyticsEnabled(): boolean {
  const { state } = useSession();
  return state.status === 'ready' && state.analytics;
}

/** Whether this Flagpole checks flags' lifecycle (`/meta/info`'s `lifecycle.enabled`). */
export function useLifecycleEnabled(): boolean {
  const { state } = useSession();
  return state.status === 'ready' && state.lifecycle;
}

/** The signed-in state from the API, or the login page's. */
async function probe(notice?: string): Promise<SessionState> {
  try {
    const info = await getMetaInfo();
    const ui = await getUiSettings().catch(() => ({}));
    const storage = { type: info.storage?.type ?? 'database', readOnly: info.storage?.readOnly === true };
    const analytics = info.analytics?.enabled === true;
    const lifecycle = info.lifecycle?.enabled === true;
    if (!info.authentication.required) return { status: 'ready', required: false, via: 'none', ui, storage, analytics, lifecycle };
    const [self, permissions] = await Promise.all([getSelf().catch(() => undefined), getPermissions().catch(() => undefined)]);
    return { status: 'ready', required: true, via: clientToken() ? 'token' : 'session', self, ui, storage, analytics, lifecycle, permissions };
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401) return { status: 'unreachable', message: messageOf(e) };
    try {
      return { status: 'login', methods: await listAuthMethods(), notice };
    } catch (e2) {
      return { status: 'unreachable', message: messageOf(e2) };
    }
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    void probe().then((s) => live && setState(s));
    return () => {
      live = false;
    };
  }, [attempt]);

  // Signed out (or the credential stopped working): nothing read as this user is shown to the next one. The pages
  // that read it are gone by now, so nothing reads it again.
  useEffect(() => {
    if (state.status === 'login') queryClient.clear();
  }, [state.status]);

  useEffect(
    () =>
      onUnauthenticated(() => {
        const hadToken = clientToken() !== null;
        setClientToken(null);
        void probe(hadToken ? 'The client token is no longer accepted. Sign in again.' : 'Your session has ended. Sign in again.').then(setState);
      }),
    [],
  );

  const signInWithToken = useCallback(async (token: string) => {
    setClientToken(token.trim());
    const next = await probe();
    if (next.status === 'ready') {
      setState(next);
      return undefined;
    }
    setClientToken(null);
    return next.status === 'login'
      ? 'This token was not accepted: it is unknown, expired, or limited to one namespace (the UI needs a token for all namespaces).'
      : next.status === 'unreachable' ? next.message : 'Sign-in failed.';
  }, []);

  const signOut = useCallback(async () => {
    if (clientToken()) {
      // A pasted static token is only forgotten: expiring it would break every other client that uses it.
      setClientToken(null);
    } else {
      await expireSelf().catch(() => undefined);
    }
    setState(await probe('You are signed out.'));
  }, []);

  const refreshPermissions = useCallback(() => {
    void getPermissions().then(
      (permissions) => setState((s) => (s.status === 'ready' && s.required ? { ...s, permissions } : s)),
      () => undefined,
    );
  }, []);

  const value = useMemo<Session>(
    () => ({ state, signInWithToken, signOut, retry: () => setAttempt((n) => n + 1), refreshPermissions }),
    [state, signInWithToken, signOut, refreshPermissions],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
