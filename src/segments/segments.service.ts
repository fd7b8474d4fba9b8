import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { InvalidError } from '../common/errors';
import { PageRequest, resolvePage } from '../common/pagination';
import { maxLength, maxText, requireField, requireKey } from '../common/validation';
import { existing } from '../namespaces/namespace.repository';
import { now } from '../storage/columns';
import { Database, inSegment } from '../storage/database.service';
import type { ListFilter } from '../storage/list-filter';
import type { SegmentListResponse, SegmentRequest, SegmentResponse } from './segment.dto';
import { MatchType } from '../wire';
import { Segment } from './segment.entity';
import { toSegmentResponse } from './segment.mapper';
import { segmentRef, SegmentRepository } from './segment.repository';

@Injectable()
export class SegmentsService {
  constructor(
    private readonly db: Database,
    private readonly segments: SegmentRepository,
  ) {}

  get(namespaceKey: string, key: string): Promise<SegmentResponse> {
    requireField('key', key);
    return this.db.read(async (em) => toSegmentResponse(await this.segments.get(em, namespaceKey, key, true)));
  }

  list(namespaceKey: string, req: PageRequest & ListFilter): Promise<SegmentListResponse> {
    const page = resolvePage(req, { requireLimit: true });
    return this.db.read(async (em) => {
      const { items, nextPageToken, totalCount } = await this.segments.list(em, namespaceKey, page, req);
      return { segments: items.map(toSegmentResponse), nextPageToken, totalCount };
    });
  }

  async create(namespaceKey: string, req: SegmentRequest): Promise<SegmentResponse> {
    const key = requireKey('key', req.key);
    const name = maxLength('name', requireField('name', req.name));
    const description = maxText('description', req.description);
    try {
      return await this.db.write(inSegment(namespaceKey, key), async (em, locked) => {
        const namespace = existing(locked, namespaceKey);
        if (await this.segments.keyTaken(em, namespaceKey, key)) throw notUnique(namespaceKey, key);
        const t = now();
        const segment = em.create(Segment, {
          id: randomUUID(), namespace, key, name, description, matchType: req.matchType ?? MatchType.ALL, createdAt: t, updatedAt: t,
        });
        await em.flush();
        return toSegmentResponse(segment);
      });
    } catch (e) {
      if (e instanceof UniqueConstraintViolationException) throw notUnique(namespaceKey, key);
      throw e;
    }
  }

  update(namespaceKey: string, key: string, req: SegmentRequest): Promise<SegmentResponse> {
    requireField('key', key);
    const name = maxLength('name', requireField('name', req.name));
    const description = maxText('description', req.description);
    return this.db.write(inSegment(namespaceKey, key), async (em) => {
      const segment = await this.segments.get(em, namespaceKey, key, true);
      Object.assign(segment, { name, description, matchType: req.matchType ?? MatchType.ALL, updatedAt: now() });
      await em.flush();
      return toSegmentResponse(segment);
    });
  }

  async delete(namespaceKey: string, key: string): Promise<void> {
    requireField('key', key);
    await this.db.write(inSegment(namespaceKey, key), async (em) => {
      const segment = await this.segments.find(em, namespaceKey, key);
      if (!segment) return;
      if (await this.segments.inUse(em, segment)) throw new InvalidError(`${segmentRef(namespaceKey, key)} is in use`);
      await this.segments.delete(em, segment);
    });
  }
}

function notUnique(namespaceKey: string, key: string): InvalidError {
  return new InvalidError(`${segmentRef(namespaceKey, key)} is not unique`);
}
