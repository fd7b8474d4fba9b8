import { Controller, Get, Header, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { AnyCredential, PublicUnless } from '../auth/auth.decorators';
import { MetricsRegistry } from './metrics.registry';

/** The content type Flipt's `/metrics` answers with (Prometheus text format 0.0.4); its integration test checks it. */
const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * Open by default, as Flipt mounts `/metrics` outside its authentication group. Its labels name namespaces, flags
 * and variants, so `metrics.require_authentication` (with `authentication.required`) asks for a credential here too.
 */
@PublicUnless((config) => config.metrics.requireAuthentication)
@AnyCredential()
@ApiTags('metrics')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsRegistry) {}

  @Get()
  @Header('content-type', CONTENT_TYPE)
  @ApiProduces(CONTENT_TYPE)
  @ApiOkResponse({ description: 'Prometheus metrics in text format', schema: { type: 'string' } })
  scrape(): StreamableFile {
    return new StreamableFile(this.metrics.textStream());
  }
}
