/**
 * The Passport strategies the one guard composes, in the order Passport tries them: the enabled methods whose
 * credential comes with every request (JWT), then client tokens. AuthModule provides the list, with only the
 * enabled methods' strategies in it. Each strategy authenticates on its own, with its own injected stores.
 *
 * A strategy is made with @nestjs/passport's PassportStrategy over passport-custom, with one change: the mixin wraps
 * `validate` in an async function, so every request would wait a turn of the event loop for an answer that is
 * usually in memory (a remembered token, a verified JWT). RequestStrategy settles Passport's attempt synchronously
 * when `validate` answers synchronously, and after its promise otherwise.
 */
import { PassportStrategy } from '@nestjs/passport';
import type { Strategy as PassportStrategyType } from 'passport';
import { Strategy } from 'passport-custom';
import type { AuthenticationRecord } from './authentication.record';
import type { CredentialRequest } from './credentials';

/** What validate answers: the authentication; null when the request carries no credential of this kind. */
export type Validation = AuthenticationRecord | null | Promise<AuthenticationRecord | null>;

export interface AuthStrategy extends Pick<PassportStrategyType, 'authenticate'> {
  /** Throws UnauthenticatedError for a credential of this kind that does not authenticate. */
  validate(request: CredentialRequest): Validation;
}

export interface NamedStrategy {
  name: string;
  strategy: AuthStrategy;
}

export const AUTH_STRATEGIES = Symbol('AUTH_STRATEGIES');

/**
 * Passport's actions on an attempt: passport-strategy documents them as augmenting the strategy during an attempt;
 * passport-custom's type declarations leave them out, hence the one cast below.
 */
interface Attempt {
  success(user: AuthenticationRecord): void;
  fail(): void;
  error(e: unknown): void;
}

/** The base class of Flagpole's strategies, registered with Passport under `name`. */
export function RequestStrategy(name: string) {
  abstract class SettlingStrategy extends PassportStrategy(Strategy, name) implements AuthStrategy {
    abstract override validate(request: CredentialRequest): Validation;

    override authenticate(request: CredentialRequest): void {
      // Passport calls this on an object made for the attempt, carrying its actions.
      const attempt = this as unknown as Attempt;
      let validation: Validation;
      try {
        validation = this.validate(request);
      } catch (e) {
        return attempt.error(e);
      }
      if (!(validation instanceof Promise)) return validation ? attempt.success(validation) : attempt.fail();
      validation.then(
        (user) => (user ? attempt.success(user) : attempt.fail()),
        (e: unknown) => attempt.error(e),
      );
    }
  }
  return SettlingStrategy;
}
