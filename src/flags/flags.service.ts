import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { InvalidError } from '../common/errors';
import { PageRequest, resolvePage } from '../common/pagination';
import { maxLength, maxText, requireField, requireKey } from '../common/validation';
import { staleCondition } from '../storage/stale-filter';
import { validateLifecycleMetadata } from './lifecycle-metadata';
import { existing } from '../namespaces/namespace.repository';
import { now } from '../storage/columns';
import { Database, inFlag } from '../storage/database.service';
import type { ListFilter } from '../storage/list-filter';
import type { CreateFlagRequest, FlagListResponse, FlagResponse, UpdateFlagRequest } from './flag.dto';
import { FlagType } from '../wire';
import { Flag } from './flag.entity';
import { toFlagResponse } from './flag.mapper';
import { flagRef, FlagRepository } from './flag.repository';

@Injectable()
export class FlagsService {
  constructor(
    private readonly db: Database,
    private readonly flags: FlagRepository,
  ) {}

  get(namespaceKey: string, key: string): Promise<FlagResponse> {
    requireField('key', key);
    return this.db.read(async (em) => toFlagResponse(await this.flags.get(em, namespaceKey, key, true), 'stored'));
  }

  list(namespaceKey: string, req: PageRequest & ListFilter & { type?: FlagType; enabled?: boolean; stale?: boolean }): Promise<FlagListResponse> {
    const page = resolvePage(req, { requireLimit: true });
    const only = { ...(req.type !== undefined ? { type: req.type } : {}), ...(req.enabled !== undefined ? { enabled: req.enabled } : {}) };
    const stale = req.stale !== undefined ? staleCondition(namespaceKey, req.stale) : undefined;
    return this.db.read(async (em) => {
      const { items, nextPageToken, totalCount } = await this.flags.list(em, namespaceKey, page, req, only, stale);
      return { flags: items.map((f) => toFlagResponse(f, 'always')), nextPageToken, totalCount };
    });
  }

  async create(namespaceKey: string, req: CreateFlagRequest): Promise<FlagResponse> {
    const key = requireKey('key', req.key);
    const name = maxLength('name', requireField('name', req.name));
    const description = maxText('description', req.description);
    validateLifecycleMetadata(req.metadata);
    const metadata = req.metadata !== undefined && Object.keys(req.metadata).length > 0 ? JSON.stringify(req.metadata) : null;
    try {
      return await this.db.write(inFlag(namespaceKey, key), async (em, locked) => {
        const namespace = existing(locked, namespaceKey);
        if (await this.flags.keyTaken(em, namespaceKey, key)) throw notUnique(namespaceKey, key);
        const t = now();
        const flag = em.create(Flag, {
          id: randomUUID(), namespace, key, name, description, enabled: req.enabled ?? false,
          type: req.type ?? FlagType.VARIANT, metadata, defaultVariantId: null, createdAt: t, updatedAt: t,
        });
        await em.flush();
        const out = toFlagResponse(flag, 'stored');
        if (req.metadata !== undefined) out.metadata = req.metadata;
        return out;
      });
    } catch (e) {
      if (e instanceof UniqueConstraintViolationException) throw notUnique(namespaceKey, key);
      throw e;
    }
  }

  update(namespaceKey: string, key: string, req: UpdateFlagRequest): Promise<FlagResponse> {
    requireField('key', key);
    const name = maxLength('name', requireField('name', req.name));
    const description = maxText('description', req.description);
    validateLifecycleMetadata(req.metadata);
    return this.db.write(inFlag(namespaceKey, key), async (em) => {
      const flag = await this.flags.get(em, namespaceKey, key, true);
      const defaultVariantId = req.defaultVariantId || null;
      if (defaultVariantId && !flag.variants.getItems().some((v) => v.id === defaultVariantId)) {
        throw new InvalidError(`variant ${JSON.stringify(defaultVariantId)} not found for ${flagRef(namespaceKey, key)}`);
      }
      flag.name = name;
      flag.description = description;
      flag.enabled = req.enabled ?? false;
      flag.defaultVariantId = defaultVariantId;
      if (req.metadata !== undefined) {
        flag.metadata = Object.keys(req.metadata).length > 0 ? JSON.stringify(req.metadata) : null;
      }
      flag.updatedAt = now();
      await em.flush();
      return toFlagResponse(flag, 'stored');
    });
  }

  /** Turns the flag on or off and nothing else (a scheduled change): the other fields stay as stored. */
  setEnabled(namespaceKey: string, key: string, enabled: boolean): Promise<FlagResponse> {
    return this.db.write(inFlag(namespaceKey, key), async (em) => {
      const flag = await this.flags.get(em, namespaceKey, key, true);
      flag.enabled = enabled;
      flag.updatedAt = now();
      await em.flush();
      return toFlagResponse(flag, 'stored');
    });
  }

  async delete(namespaceKey: string, key: string): Promise<void> {
    requireField('key', key);
    await this.db.write(inFlag(namespaceKey, key), (em) => this.flags.delete(em, namespaceKey, key));
  }
}

function notUnique(namespaceKey: string, key: string): InvalidError {
  return new InvalidError(`${flagRef(namespaceKey, key)} is not unique`);
}
