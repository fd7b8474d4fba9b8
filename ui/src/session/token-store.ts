/**
 * A client token pasted on the login page. sessionStorage, not localStorage: it is gone when the tab closes, so a
 * long-lived static token is not left behind in the browser profile.
 */
const KEY = 'flagpole.clientToken';

export function clientToken(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function setClientToken(token: string | null): void {
  if (token) sessionStorage.setItem(KEY, token);
  else sessionStorage.removeItem(KEY);
}
