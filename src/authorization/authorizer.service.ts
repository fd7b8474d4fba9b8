/**
 * `authorization.required`: the policy file, kept current, and the question the one guard asks of it for each
 * request — may this authentication do what this route needs, here? Answers come from memory: a credential's grant
 * (its roles' rules as a CASL ability) is worked out once per authentication object and once per set of roles, so a
 * request costs a WeakMap lookup and one ability check (about a microsecond), never a database query.
 *
 * The file is re-read when it changes (a watcher on its directory, which also sees a Kubernetes ConfigMap's `..data`
 * link swap, and a poll every `poll_interval` for file systems that send no events). A file that does not parse
 * keeps the last good policy in force; the reason is logged and shown in `/health` (`authorization`). At start an
 * unreadable or invalid file stops the server.
 */
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { InvalidError } from '../common/errors';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { HealthService } from '../health/health.service';
import { rolesOf, type CredentialFacts } from './bindings';
import { Grant, grantOf } from './grant';
import { parsePolicy, PolicyError, type Policy } from './policy';

/** The policy file is read once it has not changed for this long (changes within it are read once). */
const SETTLE_MS = 200;

interface Loaded {
  policy: Policy;
  /** The text it was read from, to skip re-reads that change nothing. */
  text: string;
  at: Date;
}

@Injectable()
export class Authorizer implements OnModuleDestroy {
  private readonly logger = new Logger('Authorization');
  readonly enabled: boolean;
  private readonly path: string;
  private readonly maxAliasNodes: number;
  private loaded: Loaded | null = null;
  private lastError: string | null = null;
  private grants = new WeakMap<object, Grant>();
  private byRoles = new Map<string, Grant>();
  private watcher: FSWatcher | null = null;
  private poller: NodeJS.Timeout | null = null;
  private settle: NodeJS.Timeout | null = null;
  private fingerprint = '';

  constructor(@Inject(CONFIG) config: FlagpoleConfig, health: HealthService) {
    const { required, local } = config.authorization;
    this.enabled = required;
    this.path = resolve(local.policy.path || '.');
    this.maxAliasNodes = config.limits.maxYamlAliasNodes;
    if (!required) return;
    this.install(this.read(), true);
    this.fingerprint = this.stat();
    this.startWatching(local.policy.pollInterval);
    health.describe('authorization', () => this.describe());
  }

  onModuleDestroy(): void {
    this.watcher?.close();
    if (this.poller) clearInterval(this.poller);
    if (this.settle) clearTimeout(this.settle);
    this.watcher = null;
    this.poller = this.settle = null;
  }

  /** The policy in force (throws when authorization is off). */
  get policy(): Policy {
    if (!this.loaded) throw new Error('authorization is not enabled');
    return this.loaded.policy;
  }

  /** What the credential may do under the policy in force. */
  grantOf(credential: CredentialFacts): Grant {
    let grant = this.grants.get(credential);
    if (!grant) {
      grant = this.grantOfRoles(rolesOf(this.policy, credential));
      this.grants.set(credential, grant);
    }
    return grant;
  }

  grantOfRoles(roles: readonly string[]): Grant {
    const key = roles.join('\n');
    let grant = this.byRoles.get(key);
    if (!grant) {
      grant = grantOf(this.policy, roles);
      this.byRoles.set(key, grant);
    }
    return grant;
  }

  /** Re-reads the file now; false (and the old policy kept) when it does not parse. */
  reload(): boolean {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (e) {
      return this.refuse(`cannot read ${this.path}: ${(e as Error).message}`);
    }
    if (text === this.loaded?.text) {
      // Back to the text in force (a bad edit undone): nothing to install, and nothing wrong any more.
      if (this.lastError) this.logger.log(`policy file is again the one in force: ${this.path}`);
      this.lastError = null;
      return true;
    }
    try {
      this.install({ policy: parsePolicy(text, this.path, this.maxAliasNodes), text, at: new Date() }, false);
      return true;
    } catch (e) {
      return this.refuse(e instanceof PolicyError ? e.message : `${this.path}: ${(e as Error).message}`);
    }
  }

  describe(): Record<string, unknown> {
    const p = this.loaded;
    return {
      policy: this.path,
      loadedAt: p?.at.toISOString() ?? null,
      roles: p ? [...p.policy.roles.keys()] : [],
      bindings: p?.policy.bindings.length ?? 0,
      defaultRole: p?.policy.defaultRole ?? null,
      ...(this.lastError ? { error: `the last change was refused, the policy loaded at ${p?.at.toISOString()} stays: ${this.lastError}` } : {}),
    };
  }

  private read(): Loaded {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (e) {
      throw new InvalidError(`authorization.local.policy.path: cannot read ${this.path}: ${(e as Error).message}`);
    }
    try {
      return { policy: parsePolicy(text, this.path, this.maxAliasNodes), text, at: new Date() };
    } catch (e) {
      // Reported by main.ts as a plain message naming the file and the place in it.
      throw e instanceof PolicyError ? new InvalidError(`authorization.local.policy.path: ${e.message}`) : e;
    }
  }

  private install(loaded: Loaded, first: boolean): void {
    this.loaded = loaded;
    this.lastError = null;
    this.grants = new WeakMap();
    this.byRoles = new Map();
    const { roles, bindings } = loaded.policy;
    this.logger.log(`${first ? 'policy' : 'policy reloaded'}: ${this.path} (${roles.size} roles, ${bindings.length} bindings)`);
  }

  private refuse(reason: string): false {
    if (reason !== this.lastError) this.logger.error(`policy not reloaded, the last good one stays in force: ${reason}`);
    this.lastError = reason;
    return false;
  }

  private startWatching(pollMs: number): void {
    const name = basename(this.path);
    try {
      // The directory, not the file: editors and ConfigMaps replace the file (a new inode) rather than write it.
      this.watcher = watch(dirname(this.path), (_event, changed) => {
        if (!changed || changed === name || changed === '..data') this.soon();
      });
      this.watcher.on('error', () => undefined);
    } catch {
      this.watcher = null; // the poll still sees changes
    }
    this.poller = setInterval(() => {
      const now = this.stat();
      if (now !== this.fingerprint) this.soon();
    }, pollMs);
    this.poller.unref();
  }

  /**
   * Reloads once the file has been quiet for SETTLE_MS: a writer still writing (a file rewritten in place, not
   * replaced) changes its size or times in between, and its half is never read.
   */
  private soon(seen = this.stat()): void {
    if (this.settle) return;
    this.settle = setTimeout(() => {
      this.settle = null;
      const now = this.stat();
      if (now !== seen) return this.soon(now);
      this.fingerprint = now;
      this.reload();
    }, SETTLE_MS);
    this.settle.unref();
  }

  private stat(): string {
    try {
      const s = statSync(this.path);
      return `${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}`;
    } catch {
      return 'missing';
    }
  }
}
