/**
 * Stored authentications (table `authentications`): creation with a fresh client token, lookup by client token,
 * listing, expiry and deletion. Lookups keep verified tokens in memory (decisions.md item 3), so that a request
 * normally costs no query, no hashing and never waits on one (in memory only, by the token's text, as the requests
 * carrying it hold it; the database holds only its SHA-256):
 *   - younger than REFRESH_MS: served as remembered;
 *   - from REFRESH_MS to FRESH_MS: served as remembered while one query (per token, however many requests ask)
 *     verifies it again in the background;
 *   - older than FRESH_MS: the request waits for that query, for at most SLOW_MS; a database that has not answered
 *     by then counts as unreachable, and while it is (up to OUTAGE_MS) the remembered record is served.
 * Deleting or expiring an authentication is published on Changes: this instance forgets it at once, and so do the
 * others when a shared bus (Redis) forwards it; without one, they notice within FRESH_MS.
 */
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { NotFoundError, ValidationError } from '../common/errors';
import { now } from '../storage/columns';
import { Changes } from '../storage/changes';
import { Database } from '../storage/database.service';
import { Method } from './auth-method';
import { Authentication } from './authentication.entity';
import type { AuthenticationRecord } from './authentication.record';
import { generateClientToken, hashClientToken } from './client-token';
import { OperationLock } from './operation-lock.entity';
import { isDatabaseUnreachable } from '../common/database-unreachable';

export const FRESH_MS = 5_000;
export const REFRESH_MS = 4_000;
export const SLOW_MS = 500;
export const OUTAGE_MS = 5 * 60_000;
const MAX_REMEMBERED = 10_000;

const DEFAULT_PAGE = 25;
const MAX_PAGE = 100;

export interface NewAuthentication {
  method: Method;
  metadata: Record<string, string>;
  expiresAt: Date | null;
  /** The bootstrap token may be given by the operator; otherwise a random one is made. */
  clientToken?: string;
}

export interface CreatedAuthentication {
  clientToken: string;
  authentication: AuthenticationRecord;
}

export interface AuthenticationPage {
  authentications: AuthenticationRecord[];
  nextPageToken: string;
}

interface Remembered {
  record: AuthenticationRecord;
  verifiedAt: number;
}

/** The one query verifying a token again, shared by every request that needs it. */
interface Verification {
  pending: Promise<AuthenticationRecord | null>;
  since: number;
}

@Injectable()
export class AuthenticationStore {
  /** By client token. */
  private readonly recent = new Map<string, Remembered>();
  private readonly verifying = new Map<string, Verification>();
  /** Moves on every forget: a query that started before it must not remember what it read. */
  private forgotten = 0;

  constructor(
    private readonly db: Database,
    private readonly changes: Changes,
  ) {
    changes.subscribe('authentication', (id) => this.forget(id));
  }

  /** `first` runs in the same transaction before the row is written: if it throws, nothing is stored. */
  async create(input: NewAuthentication, first?: (em: EntityManager) => Promise<void>): Promise<CreatedAuthentication> {
    const clientToken = input.clientToken ?? generateClientToken();
    const at = now();
    const row = await this.db.write(null, async (em) => {
      await first?.(em);
      return em.create(Authentication, {
        id: randomUUID(),
        hashedClientToken: hashClientToken(clientToken),
        method: input.method,
        metadata: JSON.stringify(input.metadata),
        expiresAt: input.expiresAt,
        createdAt: at,
        updatedAt: at,
      });
    });
    return { clientToken, authentication: toRecord(row) };
  }

  /**
   * Creates the authentication and the `operation_lock` row `marker` in one transaction, unless that row exists:
   * null then, also when another instance wrote it meanwhile (its insert fails and nothing is stored). A given
   * client token replaces a stored authentication with the same token, which the unique hash would refuse.
   */
  async createOnce(marker: string, input: NewAuthentication): Promise<CreatedAuthentication | null> {
    if (await this.db.read((em) => em.findOne(OperationLock, { operation: marker }))) return null;
    const replaced: string[] = [];
    try {
      const created = await this.create(input, async (em) => {
        const at = now();
        await em.insert(OperationLock, { operation: marker, version: 1, lastAcquiredAt: at, acquiredUntil: at });
        if (input.clientToken === undefined) return;
        const hashedClientToken = hashClientToken(input.clientToken);
        const stale = await em.findOne(Authentication, { hashedClientToken });
        if (!stale) return;
        await em.nativeDelete(Authentication, { hashedClientToken });
        replaced.push(stale.id);
      });
      for (const id of replaced) this.changes.publish('authentication', id);
      return created;
    } catch (e) {
      if (e instanceof UniqueConstraintViolationException) return null;
      throw e;
    }
  }

  /**
   * The authentication a client token belongs to (expired ones included: the caller decides), or null. Answered
   * without a promise while the token's remembered verification is young enough.
   */
  getByClientToken(clientToken: string): AuthenticationRecord | null | Promise<AuthenticationRecord | null> {
    const remembered = this.recent.get(clientToken);
    const t = Date.now();
    if (remembered === undefined) return this.verification(clientToken, t).pending;
    const age = t - remembered.verifiedAt;
    if (age < REFRESH_MS) return remembered.record;
    const verification = this.verification(clientToken, t);
    if (age < FRESH_MS) return remembered.record;
    if (age >= OUTAGE_MS) return verification.pending;
    const wait = verification.since + SLOW_MS - t;
    if (wait <= 0) return remembered.record;
    return withinOutage(verification.pending, wait, remembered.record);
  }

  private verification(clientToken: string, t: number): Verification {
    const running = this.verifying.get(clientToken);
    if (running) return running;
    const generation = this.forgotten;
    const hashedClientToken = hashClientToken(clientToken);
    const pending = this.db.read((em) => em.findOne(Authentication, { hashedClientToken })).then((row) => {
      if (!row) {
        this.recent.delete(clientToken);
        return null;
      }
      const record = toRecord(row);
      if (generation === this.forgotten) this.remember(clientToken, record);
      return record;
    });
    const verification = { pending, since: t };
    this.verifying.set(clientToken, verification);
    const done = () => {
      if (this.verifying.get(clientToken) === verification) this.verifying.delete(clientToken);
    };
    pending.then(done, done);
    return verification;
  }

  async get(id: string): Promise<AuthenticationRecord> {
    const row = await this.db.read((em) => em.findOne(Authentication, { id }));
    if (!row) throw new NotFoundError('getting authentication by token: resource');
    return toRecord(row);
  }

  /**
   * Flipt's token list: oldest first, `pageToken` a plain decimal offset (anything else reads as 0), page size 25
   * by default and at most 100.
   */
  async list(query: { method?: Method; limit?: number; pageToken?: string }): Promise<AuthenticationPage> {
    if (query.limit !== undefined && query.limit < 0) throw new ValidationError('limit', 'must be greater than or equal to 0');
    const limit = !query.limit ? DEFAULT_PAGE : Math.min(query.limit, MAX_PAGE);
    // An offset past what a number holds exactly (1e20 reaches the driver as a float) reads as 0 too.
    const token = Number(query.pageToken);
    const offset = /^\d+$/.test(query.pageToken ?? '') && Number.isSafeInteger(token) ? token : 0;
    const where = query.method ? { method: query.method } : {};
    const rows = await this.db.read((em) =>
      em.find(Authentication, where, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: limit + 1, offset }),
    );
    const page = rows.slice(0, limit);
    return {
      authentications: page.map(toRecord),
      nextPageToken: rows.length > limit ? String(offset + page.length) : '',
    };
  }

  async count(method: Method): Promise<number> {
    return this.db.read((em) => em.count(Authentication, { method }));
  }

  /** Deleting an id that does not exist is not an error (Flipt's behaviour without token-deletion auditing). */
  async delete(id: string): Promise<void> {
    await this.db.write(null, (em) => em.nativeDelete(Authentication, { id }));
    this.changes.publish('authentication', id);
  }

  /**
   * Sets the expiry to `at` unless the stored one is earlier, decided in the update itself: a record remembered
   * for FRESH_MS may hold an expiry that another instance has since moved earlier. Returns the stored expiry when it
   * refused, else null (also when the authentication no longer exists, which, as Flipt, is not an error).
   */
  async expireEarlier(id: string, at: Date): Promise<Date | null> {
    const updated = await this.db.write(null, (em) =>
      em.nativeUpdate(
        Authentication,
        { id, $or: [{ expiresAt: null }, { expiresAt: { $gte: at } }] },
        { expiresAt: at, updatedAt: now() },
      ),
    );
    if (updated === 0) {
      const row = await this.db.read((em) => em.findOne(Authentication, { id }));
      if (row?.expiresAt) return row.expiresAt;
    }
    this.changes.publish('authentication', id);
    return null;
  }

  /** Deletes the method's authentications that expired before `before`; returns how many. */
  async deleteExpired(method: Method, before: Date): Promise<number> {
    const deleted = await this.db.write(null, (em) =>
      em.nativeDelete(Authentication, { method, expiresAt: { $ne: null, $lt: before } }),
    );
    for (const [token, r] of this.recent) {
      if (r.record.method === method && r.record.expiresAt && r.record.expiresAt < before) this.recent.delete(token);
    }
    return deleted;
  }

  private remember(clientToken: string, record: AuthenticationRecord): void {
    this.recent.delete(clientToken);
    if (this.recent.size >= MAX_REMEMBERED) this.recent.delete(this.recent.keys().next().value as string);
    this.recent.set(clientToken, { record, verifiedAt: Date.now() });
  }

  private forget(id: string): void {
    this.forgotten++;
    for (const [token, r] of this.recent) if (r.record.id === id) this.recent.delete(token);
  }
}

/**
 * The verification's answer if it comes within `ms`, else `remembered` (the database counts as unreachable); also
 * `remembered` when the verification fails because the database is unreachable.
 */
function withinOutage(
  pending: Promise<AuthenticationRecord | null>,
  ms: number,
  remembered: AuthenticationRecord,
): Promise<AuthenticationRecord | null> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(remembered), ms);
    pending.then(
      (record) => {
        clearTimeout(timer);
        resolve(record);
      },
      (e: unknown) => {
        clearTimeout(timer);
        if (isDatabaseUnreachable(e)) resolve(remembered);
        else reject(e);
      },
    );
  });
}

function toRecord(row: Authentication): AuthenticationRecord {
  return {
    id: row.id,
    method: row.method as Method,
    expiresAt: row.expiresAt ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
  };
}


