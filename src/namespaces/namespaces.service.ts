import { Injectable } from '@nestjs/common';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { InvalidError } from '../common/errors';
import { PageRequest, resolvePage } from '../common/pagination';
import { maxLength, maxText, requireField, requireKey } from '../common/validation';
import { FlagRepository } from '../flags/flag.repository';
import { now } from '../storage/columns';
import { Database } from '../storage/database.service';
import type { CreateNamespaceRequest, NamespaceListResponse, NamespaceResponse, UpdateNamespaceRequest } from './namespace.dto';
import { Namespace } from './namespace.entity';
import { toNamespaceResponse } from './namespace.mapper';
import { existing, NamespaceRepository } from './namespace.repository';

@Injectable()
export class NamespacesService {
  constructor(
    private readonly db: Database,
    private readonly namespaces: NamespaceRepository,
    private readonly flags: FlagRepository,
  ) {}

  get(key: string): Promise<NamespaceResponse> {
    return this.db.read(async (em) => toNamespaceResponse(await this.namespaces.get(em, key)));
  }

  /** `viewable`: only the namespaces the caller may read (authorization), as Flipt's `viewable_namespaces`. */
  list(req: PageRequest, viewable?: (key: string) => boolean): Promise<NamespaceListResponse> {
    const page = resolvePage(req);
    return this.db.read(async (em) => {
      const { items, nextPageToken, totalCount } = await this.namespaces.list(em, page, viewable);
      return { namespaces: items.map(toNamespaceResponse), nextPageToken, totalCount };
    });
  }

  async create(req: CreateNamespaceRequest): Promise<NamespaceResponse> {
    const key = requireKey('key', req.key);
    const name = maxLength('name', requireField('name', req.name));
    const description = maxText('description', req.description);
    try {
      return await this.db.write(key, async (em, locked) => {
        if (locked) throw notUnique(key);
        const t = now();
        const ns = em.create(Namespace, { key, name, description, protected: false, createdAt: t, updatedAt: t, stateModifiedAt: t });
        await em.flush();
        return toNamespaceResponse(ns);
      });
    } catch (e) {
      // Two concurrent creates both pass the lookup; the primary key decides.
      if (e instanceof UniqueConstraintViolationException) throw notUnique(key);
      throw e;
    }
  }

  update(key: string, req: UpdateNamespaceRequest): Promise<NamespaceResponse> {
    const name = maxLength('name', requireField('name', req.name));
    const description = maxText('description', req.description);
    return this.db.write(key, async (em, locked) => {
      const ns = existing(locked, key);
      Object.assign(ns, { name, description, updatedAt: now() });
      await em.flush();
      return toNamespaceResponse(ns);
    });
  }

  async delete(key: string, force: boolean): Promise<void> {
    await this.db.write(key, async (em, locked) => {
      const ns = existing(locked, key);
      if (!force) {
        if (ns.protected) throw new InvalidError(`namespace ${JSON.stringify(key)} is protected`);
        if ((await this.flags.countIn(em, key)) > 0) {
          throw new InvalidError(`namespace ${JSON.stringify(key)} cannot be deleted; flags must be deleted first`);
        }
      }
      // Flags first: their rules and rollouts hold the references that keep segments from being deleted.
      await this.flags.deleteAllIn(em, key);
      await this.namespaces.delete(em, key);
    });
  }
}

function notUnique(key: string): InvalidError {
  return new InvalidError(`namespace ${JSON.stringify(key)} is not unique`);
}
