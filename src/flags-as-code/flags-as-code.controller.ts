import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { AuthenticationRecord } from '../auth/authentication.record';
import { CurrentAuthentication, Excludable, NamespaceScoped, Needs } from '../auth/auth.decorators';
import { RequestNamespace } from '../auth/request-namespace.decorator';
import { attachmentDisposition } from '../common/content-disposition';
import { TextBody } from '../common/json-body';
import { Audited } from '../audit/audited.decorator';
import { PermissionChecker, type PermissionCheck } from '../permissions/permission-check';
import { ExportQuery, ImportQuery, ImportResponse } from './flags-as-code.dto';
import { FlagsAsCodeService } from './flags-as-code.service';
import type { DocumentFormat } from './document-writer';

/** An import may create, change and (with `drop`) delete flags and segments; creating its namespace is checked by the service. */
const IMPORT_NEEDS = (['flag', 'segment'] as const).flatMap((resource) => (['create', 'update', 'delete'] as const).map((action) => ({ resource, action })));

const MEDIA_TYPES: Record<DocumentFormat, string> = { yaml: 'application/yaml', json: 'application/json' };

/** Flagpole's own routes (Flipt v1 exports and imports only from its CLI); no Flipt route lives under these paths. */
@Excludable('management')
@NamespaceScoped()
@ApiTags('flags as code')
@Controller('api/v1/namespaces/:namespaceKey')
export class FlagsAsCodeController {
  constructor(private readonly service: FlagsAsCodeService) {}

  @Get('export')
  @Needs([{ resource: 'flag', action: 'read' }, { resource: 'segment', action: 'read' }])
  @ApiOperation({ summary: 'The namespace as a Flipt-format document (version 1.4), as `flipt export` writes it' })
  @ApiProduces(MEDIA_TYPES.yaml, MEDIA_TYPES.json)
  @ApiOkResponse({ schema: { type: 'string' } })
  async export(
    @RequestNamespace() ns: string, @Query() query: ExportQuery, @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const { text, format } = await this.service.exportText(ns, query.format ?? 'yaml', query.sortByKey, { schedules: query.schedules });
    reply.header('content-type', `${MEDIA_TYPES[format]}; charset=utf-8`);
    reply.header('content-disposition', attachmentDisposition(`${ns}.features.${format === 'yaml' ? 'yml' : 'json'}`));
    return text;
  }

  @HttpCode(200)
  @Post('import')
  @Needs(IMPORT_NEEDS)
  @TextBody()
  @ApiOperation({
    summary: 'Import a Flipt-format document (versions 1.0 to 1.4, YAML or JSON) into the namespace',
    description: 'All of it or nothing: an invalid item is a 400 naming its line, column and path, and nothing is written. '
      + 'The document must be about this namespace (one naming none is). A namespace that does not exist is created. '
      + 'Body limit: `limits.max_import_bytes`.',
  })
  @ApiConsumes(MEDIA_TYPES.yaml, MEDIA_TYPES.json)
  @ApiBody({ schema: { type: 'string', example: 'version: "1.4"\nflags:\n- key: new-checkout\n  name: New checkout\n  enabled: true\n' } })
  @ApiOkResponse({ type: ImportResponse })
  // One event for the whole import (not one per flag: an import may create thousands), with what it did.
  @Audited('namespace', 'updated', { payload: importPayload })
  async import(
    @RequestNamespace() ns: string, @Query() query: ImportQuery, @Body() body: unknown, @PermissionChecker() check: PermissionCheck | undefined,
    @CurrentAuthentication() authentication: AuthenticationRecord | undefined,
  ): Promise<ImportResponse> {
    const [summary] = await this.service.importText(typeof body === 'string' ? body : '', {
      namespace: ns, skipExisting: query.skipExisting, drop: query.drop, source: 'request body', check, authentication,
    });
    return summary ?? emptyImport(ns);
  }
}

function importPayload(request: { params: Record<string, string> }, answer: unknown): Record<string, unknown> {
  const r = answer as ImportResponse;
  return {
    key: r.namespaceKey ?? request.params.namespaceKey,
    import: {
      namespace_created: r.namespaceCreated, flags_created: r.flagsCreated, flags_skipped: r.flagsSkipped, flags_deleted: r.flagsDeleted,
      segments_created: r.segmentsCreated, segments_skipped: r.segmentsSkipped, segments_deleted: r.segmentsDeleted,
      ...(r.schedulesCreated === undefined ? {} : { schedules_created: r.schedulesCreated, schedules_skipped: r.schedulesSkipped }),
      ...(r.schedulesCancelled === undefined ? {} : { schedules_cancelled: r.schedulesCancelled }),
    },
  };
}

/** An empty document imports nothing. */
function emptyImport(ns: string): ImportResponse {
  return { namespaceKey: ns, namespaceCreated: false, flagsCreated: 0, flagsSkipped: 0, flagsDeleted: 0, segmentsCreated: 0, segmentsSkipped: 0, segmentsDeleted: 0 };
}
