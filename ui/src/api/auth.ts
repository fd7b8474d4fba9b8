import { api, enc } from './client';
import { randomId } from '../lib/random-id';
import type { PageFetcher } from './paging';
import type { Authentication, AuthMethod } from './types';

export async function listAuthMethods(): Promise<AuthMethod[]> {
  return (await api.get<{ methods: AuthMethod[] }>('auth/v1/method', { probe: true })).methods;
}

export const getSelf = () => api.get<Authentication>('auth/v1/self', { probe: true });

/** Ends the caller's session: the server expires it and clears the session cookies. */
export const expireSelf = () => api.put('auth/v1/self/expire', undefined, { probe: true });

/**
 * Where a browser login starts: the server answers the provider's URL and sets the state cookie the callback
 * checks. Built relative to the page rather than taken from `/auth/v1/method`, whose URLs carry a prefix only
 * when the proxy sends X-Forwarded-Prefix.
 */
export function authorize(method: 'oidc' | 'github', provider?: string) {
  const path = method === 'oidc' ? `auth/v1/method/oidc/${enc(provider ?? '')}/authorize` : 'auth/v1/method/github/authorize';
  return api.get<{ authorizeUrl: string }>(path, { query: { state: randomId() }, probe: true });
}

export const tokenPages: PageFetcher<Authentication> = async (limit, pageToken, signal) => {
  const r = await api.get<{ authentications: Authentication[]; nextPageToken: string }>('auth/v1/tokens', {
    query: { method: 'METHOD_TOKEN', limit, pageToken },
    signal,
  });
  return { items: r.authentications, nextPageToken: r.nextPageToken };
};

export interface NewToken {
  name: string;
  description: string;
  expiresAt?: string;
  namespaceKey?: string;
  /** Stored with the token; the role key (`io.flagpole.auth.role`) is read by the authorization policy. */
  metadata?: Record<string, string>;
}

export const createToken = (input: NewToken) =>
  api.post<{ clientToken: string; authentication: Authentication }>('auth/v1/method/token', input);

export const deleteToken = (id: string) => api.delete(`auth/v1/tokens/${enc(id)}`);
