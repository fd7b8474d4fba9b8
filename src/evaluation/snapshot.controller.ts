import { createHash } from 'node:crypto';
import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { toSnapshotDocument, type SnapshotDocument } from '../core';
import { SnapshotCache } from './snapshot-cache.service';
import { Excludable, NamespaceScoped } from '../auth/auth.decorators';

/** The document client-side SDKs (`@flipt-io/flipt-client-js`) poll and evaluate locally. */
@Excludable('evaluation')
@NamespaceScoped('key')
@ApiTags('evaluation')
@Controller('internal/v1/evaluation/snapshot/namespace')
export class SnapshotController {
  constructor(private readonly snapshots: SnapshotCache) {}

  @Get(':key')
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'ETag of the copy the client holds' })
  @ApiHeader({ name: 'X-Flipt-Accept-Server-Version', required: false, description: 'Client version; ≥ 1.47.0 gets every field' })
  @ApiOkResponse({ description: 'EvaluationNamespaceSnapshot: {namespace: {key}, flags: [...]}', schema: { type: 'object' } })
  @ApiResponse({ status: 304, description: 'Unchanged since the ETag in If-None-Match (the ETag is repeated)' })
  async get(
    @Param('key') key: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Headers('x-flipt-accept-server-version') acceptVersion: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SnapshotDocument | undefined> {
    const snapshot = await this.snapshots.get(key);
    // A namespace that does not exist has no version: 200 with no flags and no ETag, as Flipt answers.
    if (snapshot.version !== '') {
      const etag = createHash('sha1').update(snapshot.version).digest('hex');
      reply.header('etag', etag);
      if (ifNoneMatch === etag) {
        reply.status(304);
        return undefined;
      }
    }
    return toSnapshotDocument(snapshot, acceptVersion);
  }
}
