/**
 * Whether a schedule's author may still make its change when a step applies (docs/api.md, Scheduled changes): a
 * static token that was deleted or has expired may not; with `authorization.required`, the policy in force must still
 * grant `update` on flags in the namespace to the author's facts as they were when the schedule was made. Sessions
 * (OIDC, GitHub, Kubernetes) end by design, so theirs are checked by the policy only; a JWT is never stored.
 */
import { Injectable } from '@nestjs/common';
import { AuthenticationStore } from '../auth/authentication.store';
import { isExpired } from '../auth/authentication.record';
import { NotFoundError } from '../common/errors';
import { Authorizer } from '../authorization/authorizer.service';
import { Method } from '../wire';
import type { ScheduleAuthor } from './schedule-author';

@Injectable()
export class AuthorRights {
  constructor(
    private readonly authentications: AuthenticationStore,
    private readonly authorizer: Authorizer,
  ) {}

  /** Why the author may no longer change flags in `namespace` at `at`, or null when they may. */
  async refusal(author: ScheduleAuthor, namespace: string, at: number): Promise<string | null> {
    const who = author.actor.name ?? author.actor.email ?? author.authenticationId;
    if (author.method === Method.METHOD_TOKEN && author.authenticationId) {
      try {
        const token = await this.authentications.get(author.authenticationId);
        if (isExpired(token, at)) return `the author's token ${JSON.stringify(who)} has expired, so it may no longer update flags in namespace ${JSON.stringify(namespace)}: nothing was changed`;
      } catch (e) {
        if (e instanceof NotFoundError) return `the author's token ${JSON.stringify(who)} was deleted, so it may no longer update flags in namespace ${JSON.stringify(namespace)}: nothing was changed`;
        throw e;
      }
    }
    if (!this.authorizer.enabled) return null;
    const grant = this.authorizer.grantOf({ method: author.method, metadata: author.metadata, ...(author.claims ? { claims: author.claims } : {}) });
    if (grant.allows('update', 'flag', namespace)) return null;
    return `the author ${JSON.stringify(who)} may no longer update flags in namespace ${JSON.stringify(namespace)} (authorization policy): nothing was changed`;
  }
}
