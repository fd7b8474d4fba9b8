/**
 * The one pipe: request shape normalisation (request-shape.ts), then class-validator on the route's DTO. A value of
 * the wrong JSON type gets Flipt's 400 `invalid values for key(s) in json body`, followed by what was wrong.
 */
import { ArgumentMetadata, Injectable, ValidationError as ClassValidationError, ValidationPipe } from '@nestjs/common';
import { InvalidError } from './errors';
import { normalizeMessage } from './request-shape';
import { requireStorableFields, requireStorableText } from './storable-text';

class ShapeError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

@Injectable()
export class RequestPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: false,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new ShapeError(flatten(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A path parameter or named query value is a key the services look up: the database must be able to hold it.
    if (metadata.data && typeof value === 'string' && (metadata.type === 'param' || metadata.type === 'query')) {
      requireStorableText(metadata.data, value);
    }
    // Routes that parse their own input (evaluation, the hot path) declare no DTO class: leave their input alone.
    if (!metadata.metatype || metadata.metatype === Object) return value;
    // A single named field (`@Query('service')`) or a path parameter is a plain value, not a message.
    if ((metadata.type !== 'body' && metadata.type !== 'query') || metadata.data) return super.transform(value, metadata);
    const where = metadata.type === 'body' ? 'json body' : 'query string';
    const shaped = normalizeMessage(value, where);
    let message: unknown;
    try {
      message = await super.transform(shaped, metadata);
    } catch (e) {
      if (e instanceof ShapeError) throw new InvalidError(`invalid values for key(s) in ${where}: ${e.message}`);
      throw e;
    }
    requireStorableFields(message);
    return message;
  }
}

function flatten(errors: ClassValidationError[], prefix = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    // A list's item is named by its index in brackets, as services name fields: `steps[0].percentage`.
    const path = !prefix ? e.property : /^\d+$/.test(e.property) ? `${prefix}[${e.property}]` : `${prefix}.${e.property}`;
    // One message per field is enough to fix the request.
    const first = e.constraints ? Object.values(e.constraints)[0] : undefined;
    if (first) out.push(first.replace(e.property, path));
    if (e.children?.length) out.push(...flatten(e.children, path));
  }
  return out;
}
