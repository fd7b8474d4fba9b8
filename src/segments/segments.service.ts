import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/core';
import { InvalidError, NotFoundError } from '../common/errors';
import { cutPage, PageRequest, resolvePage } from '../common/pagination';
import { maxLength, maxText, requireField, requireKey } from '../common/validation';
import { findNamespace } from '../namespaces/namespaces.service';
import { RolloutSegment } from '../rollouts/rollout-segment.entity';
import { RuleSegment } from '../rules/rule-segment.entity';
import { now } from '../storage/columns';
import { Database } from '../storage/database.service';
import type { SegmentListResponse, SegmentRequest, SegmentResponse } from './segment.dto';
import { MatchType, Segment } from './segment.entity';
import { toSegmentResponse } from './segment.mapper';

export function segmentRef(namespaceKey: string, key: string): string {
  return `segment ${JSON.stringify(`${namespaceKey}/${key}`)}`;
}

export async function findSegment(em: EntityManager, namespaceKey: string, key: string, withConstraints = false): Promise<Segment> {
  const segment = await em.findOne(Segment, { namespace: namespaceKey, key }, withConstraints ? { populate: ['constraints'] } : {});
  if (!segment) throw new NotFoundError(segmentRef(namespaceKey, key));
  return segment;
}

@Injectable()
export class SegmentsService {
  constructor(private readonly db: Database) {}

  get(namespaceKey: string, key: string): Promise<SegmentResponse> {
    requireField('key', key);
    return this.db.read(async (em) => toSegmentResponse(await findSegment(em, namespaceKey, key, true)));
  }

  list(namespaceKey: string, req: PageRequest): Promise<SegmentListResponse> {
    const page = resolvePage(req, { requireLimit: true });
    return this.db.read(async (em) => {
      const where = { namespace: namespaceKey };
      const [rows, totalCount] = await Promise.all([
        em.find(Segment, where, {
          populate: ['constraints'],
          orderBy: { createdAt: 'asc', key: 'asc' },
          offset: page.offset,
          ...(page.limit ? { limit: page.limit + 1 } : {}),
        }),
        em.count(Segment, where),
      ]);
      const { items, nextPageToken } = cutPage(rows, page, (s) => s.key);
      return { segments: items.map(toSegmentResponse), nextPageToken, totalCount };
    });
  }

  async create(namespaceKey: string, req: SegmentRequest): Promise<SegmentResponse> {
    const key = requireKey('key', req.key);
    const name = maxLength('name', requireField('name', req.name));
    const description = maxText('description', req.description);
    try {
      return await this.db.write(namespaceKey, async (em) => {
        const namespace = await findNamespace(em, namespaceKey);
        if (await em.count(Segment, { namespace: namespaceKey, key })) throw notUnique(namespaceKey, key);
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
    return this.db.write(namespaceKey, async (em) => {
      const segment = await findSegment(em, namespaceKey, key, true);
      Object.assign(segment, { name, description, matchType: req.matchType ?? MatchType.ALL, updatedAt: now() });
      await em.flush();
      return toSegmentResponse(segment);
    });
  }

  async delete(namespaceKey: string, key: string): Promise<void> {
    requireField('key', key);
    await this.db.write(namespaceKey, async (em) => {
      const segment = await em.findOne(Segment, { namespace: namespaceKey, key });
      if (!segment) return;
      const uses = (await em.count(RuleSegment, { segment })) + (await em.count(RolloutSegment, { segment }));
      if (uses > 0) throw new InvalidError(`${segmentRef(namespaceKey, key)} is in use`);
      await em.nativeDelete(Segment, { id: segment.id });
    });
  }
}

function notUnique(namespaceKey: string, key: string): InvalidError {
  return new InvalidError(`${segmentRef(namespaceKey, key)} is not unique`);
}
