import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { InvalidError, NotFoundError, ValidationError } from '../common/errors';
import { compactJson, isJson } from '../common/json-text';
import { MAX_ATTACHMENT_BYTES, maxLength, maxText, requireField } from '../common/validation';
import { now } from '../storage/columns';
import { Database, inFlag } from '../storage/database.service';
import type { VariantRequest, VariantResponse } from './flag.dto';
import { toVariantResponse } from './flag.mapper';
import { flagRef, FlagRepository } from './flag.repository';
import { Variant } from './variant.entity';

@Injectable()
export class VariantsService {
  constructor(
    private readonly db: Database,
    private readonly flags: FlagRepository,
  ) {}

  async create(namespaceKey: string, flagKey: string, req: VariantRequest): Promise<VariantResponse> {
    const input = validate(flagKey, req);
    return this.unique(namespaceKey, flagKey, input.key, () =>
      this.db.write(inFlag(namespaceKey, flagKey), async (em) => {
        const flag = await this.flags.get(em, namespaceKey, flagKey);
        if (await this.flags.variantKeyTaken(em, flag, input.key)) throw notUnique(namespaceKey, flagKey, input.key);
        const t = now();
        const variant = em.create(Variant, { id: randomUUID(), flag, ...input, createdAt: t, updatedAt: t });
        await em.flush();
        return toVariantResponse(variant, namespaceKey, flagKey);
      }),
    );
  }

  async update(namespaceKey: string, flagKey: string, id: string, req: VariantRequest): Promise<VariantResponse> {
    requireField('id', id);
    const input = validate(flagKey, req);
    return this.unique(namespaceKey, flagKey, input.key, () =>
      this.db.write(inFlag(namespaceKey, flagKey), async (em) => {
        const variant = await this.flags.findVariant(em, namespaceKey, flagKey, id);
        if (!variant) throw new NotFoundError(`variant ${JSON.stringify(input.key)}`);
        // The message takes the flag key from the request: `variant.flag` is an unloaded reference.
        if (variant.key !== input.key && (await this.flags.variantKeyTaken(em, variant.flag, input.key))) {
          throw notUnique(namespaceKey, flagKey, input.key);
        }
        Object.assign(variant, input, { updatedAt: now() });
        await em.flush();
        return toVariantResponse(variant, namespaceKey, flagKey);
      }),
    );
  }

  async delete(namespaceKey: string, flagKey: string, id: string): Promise<void> {
    requireField('id', id);
    requireField('flagKey', flagKey);
    await this.db.write(inFlag(namespaceKey, flagKey), async (em) => {
      const variant = await this.flags.findVariant(em, namespaceKey, flagKey, id);
      if (variant) await this.flags.deleteVariant(em, variant);
    });
  }

  private async unique<T>(namespaceKey: string, flagKey: string, key: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      if (e instanceof UniqueConstraintViolationException) throw notUnique(namespaceKey, flagKey, key);
      throw e;
    }
  }
}

function validate(flagKey: string, req: VariantRequest) {
  requireField('flagKey', flagKey);
  const key = maxLength('key', requireField('key', req.key));
  const attachment = req.attachment ?? '';
  if (attachment !== '') {
    if (!isJson(attachment)) throw new ValidationError('attachment', 'must be a json string');
    if (Buffer.byteLength(attachment, 'utf8') > MAX_ATTACHMENT_BYTES) {
      throw new ValidationError('attachment', 'must be less than 1000 KB');
    }
  }
  return {
    key,
    name: maxLength('name', req.name ?? ''),
    description: maxText('description', req.description),
    attachment: attachment === '' ? null : compactJson(attachment),
  };
}

function notUnique(namespaceKey: string, flagKey: string, key: string): InvalidError {
  return new InvalidError(`variant ${JSON.stringify(key)} is not unique for ${flagRef(namespaceKey, flagKey)}`);
}
