/**
 * The stored audit trail, `GET /api/v1/audit/events` (Flagpole's own route; Flipt has none). Authenticated like the
 * management API. A namespaced token must name its own namespace (as on every namespaced route, an absent
 * `namespaceKey` reads as `default`) and then reads that namespace's events only.
 */
import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuthentication, Excludable, NamespaceScoped, Needs } from '../auth/auth.decorators';
import type { AuthenticationRecord } from '../auth/authentication.record';
import { TOKEN_NAMESPACE } from '../auth/methods/token/token.metadata';
import { RequestNamespace } from '../auth/request-namespace.decorator';
import { NotFoundError, ValidationError } from '../common/errors';
import { resolvePage } from '../common/pagination';
import type { AuditEvent } from './audit-event';
import { parseTimeBound } from './audit-time-bound';
import { AuditListQuery, AuditListResponse } from './audit.dto';
import { AuditRepository } from './audit.repository';
import { AuditTrail } from './audit-trail.service';

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;

@Excludable('management')
@NamespaceScoped()
@Needs([{ resource: 'audit', action: 'read' }], 'ifNamed')
@ApiTags('audit')
@Controller('api/v1/audit')
export class AuditController {
  constructor(
    private readonly repository: AuditRepository,
    private readonly trail: AuditTrail,
  ) {}

  @Get('events')
  @ApiOperation({ summary: 'Stored audit events, newest first (docs/audit.md)' })
  @ApiOkResponse({ type: AuditListResponse })
  async list(
    @RequestNamespace() ns: string,
    @CurrentAuthentication() authentication: AuthenticationRecord | undefined,
    @Query() q: AuditListQuery,
  ): Promise<AuditListResponse> {
    if (!this.trail.storing) throw new NotFoundError('the audit trail (audit.storage.enabled is false on this server)');
    const limit = q.limit || DEFAULT_LIMIT;
    if (limit < 0 || limit > MAX_LIMIT) throw new ValidationError('limit', `must be between 0 and ${MAX_LIMIT}`);
    const page = resolvePage({ limit, pageToken: q.pageToken });
    const namespaced = authentication?.metadata[TOKEN_NAMESPACE] !== undefined;
    const { items, nextPageToken, totalCount } = await this.repository.list(
      {
        namespace: namespaced || q.namespaceKey ? ns : undefined,
        type: q.type,
        action: q.action,
        flag: q.flagKey,
        segment: q.segmentKey,
        actor: q.actor,
        actorContains: q.actorContains,
        since: q.since ? parseTimeBound(q.since, 'since') : undefined,
        until: q.until ? parseTimeBound(q.until, 'until') : undefined,
      },
      page,
    );
    return {
      events: items.map((r) => ({
        id: r.id,
        ...(JSON.parse(r.event) as AuditEvent),
        before: r.previousPayload === null ? null : (JSON.parse(r.previousPayload) as Record<string, unknown>),
        ...(r.flagKey ? { flagKey: r.flagKey } : {}),
      })),
      nextPageToken,
      totalCount,
    };
  }
}
