import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../common/errors';
import { requireField } from '../common/validation';
import { now } from '../storage/columns';
import { Database, inSegment } from '../storage/database.service';
import { Constraint } from './constraint.entity';
import { validateConstraint } from './constraint.validation';
import type { ConstraintRequest, ConstraintResponse } from './segment.dto';
import { toConstraintResponse } from './segment.mapper';
import { SegmentRepository } from './segment.repository';

@Injectable()
export class ConstraintsService {
  constructor(
    private readonly db: Database,
    private readonly segments: SegmentRepository,
  ) {}

  create(namespaceKey: string, segmentKey: string, req: ConstraintRequest): Promise<ConstraintResponse> {
    const input = validateConstraint(segmentKey, req);
    return this.db.write(inSegment(namespaceKey, segmentKey), async (em) => {
      const segment = await this.segments.get(em, namespaceKey, segmentKey);
      const t = now();
      const c = em.create(Constraint, { id: randomUUID(), segment, ...input, createdAt: t, updatedAt: t });
      await em.flush();
      return toConstraintResponse(c, namespaceKey, segmentKey);
    });
  }

  update(namespaceKey: string, segmentKey: string, id: string, req: ConstraintRequest): Promise<ConstraintResponse> {
    requireField('id', id);
    const input = validateConstraint(segmentKey, req);
    return this.db.write(inSegment(namespaceKey, segmentKey), async (em) => {
      const c = await this.segments.findConstraint(em, namespaceKey, segmentKey, id);
      if (!c) throw new NotFoundError(`constraint ${JSON.stringify(id)}`);
      Object.assign(c, input, { updatedAt: now() });
      await em.flush();
      return toConstraintResponse(c, namespaceKey, segmentKey);
    });
  }

  async delete(namespaceKey: string, segmentKey: string, id: string): Promise<void> {
    requireField('id', id);
    requireField('segmentKey', segmentKey);
    await this.db.write(inSegment(namespaceKey, segmentKey), async (em) => {
      const c = await this.segments.findConstraint(em, namespaceKey, segmentKey, id);
      if (c) await this.segments.deleteConstraint(em, c);
    });
  }
}
