import { Injectable } from '@nestjs/common';
import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/core';
import { InvalidError, NotFoundError } from '../common/errors';
import { cutPage, PageRequest, resolvePage } from '../common/pagination';
import { maxLength, maxText, requireField, requireKey } from '../common/validation';
import { Flag } from '../flags/flag.entity';
import { now } from '../storage/columns';
import { Database } from '../storage/database.service';
import type { CreateNamespaceRequest, NamespaceListResponse, NamespaceResponse, UpdateNamespaceRequest } from './namespace.dto';
import { Namespace } from './namespace.entity';
import { toNamespaceResponse } from './namespace.mapper';

@Injectable()
export class NamespacesService {
  constructor(private readonly db: Database) {}

  get(key: string): Promise<NamespaceResponse> {
    return this.db.read(async (em) => toNamespaceResponse(await findNamespace(em, key)));
  }

  list(req: PageRequest): Promise<NamespaceListResponse> {
    const page = resolvePage(req);
    return this.db.read(async (em) => {
      const [rows, totalCount] = await Promise.all([
        em.find(Namespace, {}, {
          orderBy: { createdAt: 'asc', key: 'asc' },
          offset: page.offset,
          ...(page.limit ? { limit: page.limit + 1 } : {}),
        }),
        em.count(Namespace, {}),
      ]);
      const { items, nextPageToken } = cutPage(rows, page, (n) => n.key);
      return { namespaces: items.map(toNamespaceResponse), nextPageToken, totalCount };
    });
  }

  async create(req: CreateNamespaceRequest): Promise<NamespaceResponse> {
    const key = requireKey('key', req.key);
    const name = maxLength('name', requireField('name', req.name));
    const description = maxText('description', req.description);
    try {
      return await this.db.write(key, async (em) => {
        if (await em.findOne(Namespace, { key })) throw notUnique(key);
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
    return this.db.write(key, async (em) => {
      const ns = await findNamespace(em, key);
      Object.assign(ns, { name, description, updatedAt: now() });
      await em.flush();
      return toNamespaceResponse(ns);
    });
  }

  async delete(key: string, force: boolean): Promise<void> {
    await this.db.write(key, async (em) => {
      const ns = await findNamespace(em, key);
      if (!force) {
        if (ns.protected) throw new InvalidError(`namespace ${JSON.stringify(key)} is protected`);
        if ((await em.count(Flag, { namespace: key })) > 0) {
          throw new InvalidError(`namespace ${JSON.stringify(key)} cannot be deleted; flags must be deleted first`);
        }
      }
      // Flags first: their rules and rollouts hold the references that keep segments from being deleted.
      await em.nativeDelete(Flag, { namespace: key });
      await em.nativeDelete(Namespace, { key });
    });
  }
}

export async function findNamespace(em: EntityManager, key: string): Promise<Namespace> {
  const ns = await em.findOne(Namespace, { key });
  if (!ns) throw new NotFoundError(`namespace ${JSON.stringify(key)}`);
  return ns;
}

function notUnique(key: string): InvalidError {
  return new InvalidError(`namespace ${JSON.stringify(key)} is not unique`);
}
