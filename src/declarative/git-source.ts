/**
 * State files from a Git repository (`storage.type: git`, Flipt's `storage.git.*` keys), read with isomorphic-git:
 * Git in JavaScript, over HTTP(S), no git binary at run time. Each poll fetches the one ref, shallow (depth 1), into
 * a local object store; a version is the fetched commit, and its files are read straight from the commit's tree
 * (no working copy). `directory` limits the tree to a sub-directory. Authentication: basic (user and password) or
 * a token (sent as `Authorization: Bearer`, as Flipt's Git client does); TLS: extra CA certificates or no
 * verification. SSH is not available (isomorphic-git speaks HTTP only).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as fs from 'node:fs';
import { Agent as HttpsAgent } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import git, { type HttpClient } from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import type { GitStorageConfig } from '../config/config.types';
import { withAdvertisedHead } from './git-advertised-head';
import { readStateFiles, type FileTree } from './state-files';
import type { SourceSnapshot, StateSource } from './state-source';

export class GitSource implements StateSource {
  readonly description: Record<string, unknown>;
  readonly pollInterval: number;
  private readonly dir: string;
  private readonly temporary: boolean;
  private readonly http: HttpClient;
  private readonly headers: Record<string, string> = {};
  private readonly auth: { username: string; password: string } | undefined;
  private readonly prefix: string;
  private initialised = false;

  constructor(private readonly config: GitStorageConfig) {
    this.pollInterval = config.pollInterval;
    this.description = { type: 'git', repository: redactUrl(config.repository), ref: config.ref, ...(config.directory ? { directory: config.directory } : {}) };
    this.temporary = config.backend.type !== 'local' || !config.backend.path;
    this.dir = this.temporary ? mkdtempSync(join(tmpdir(), 'flagpole-git-')) : resolve(config.backend.path);
    if (!this.temporary) mkdirSync(this.dir, { recursive: true });
    this.prefix = config.directory.replace(/^\/+|\/+$/g, '');
    const { basic, token } = config.authentication;
    if (token.accessToken) this.headers.authorization = `Bearer ${token.accessToken}`;
    this.auth = basic.username || basic.password ? { username: basic.username, password: basic.password } : undefined;
    // The configured ref, whatever the remote's HEAD names (git-advertised-head.ts).
    this.http = withAdvertisedHead(withAgent(config));
  }

  /** Fetches the ref; its commit is the version. */
  async current(): Promise<SourceSnapshot> {
    if (!this.initialised) {
      await git.init({ fs, gitdir: this.dir, bare: true });
      await git.addRemote({ fs, gitdir: this.dir, remote: 'origin', url: this.config.repository, force: true });
      this.initialised = true;
    }
    const { fetchHead } = await git.fetch({
      fs, http: this.http, gitdir: this.dir, remote: 'origin', ref: this.config.ref, singleBranch: true, depth: 1, tags: false,
      headers: this.headers, onAuth: this.auth ? () => this.auth : undefined,
    });
    if (!fetchHead) throw new Error(`${redactUrl(this.config.repository)} has no ref ${JSON.stringify(this.config.ref)}`);
    const commit = fetchHead;
    return { version: commit, files: () => readStateFiles(this.tree(commit)) };
  }

  async close(): Promise<void> {
    if (this.temporary) rmSync(this.dir, { recursive: true, force: true });
  }

  /** The commit's files under `directory`, paths relative to it. */
  private tree(commit: string): FileTree {
    const prefix = this.prefix ? `${this.prefix}/` : '';
    return {
      list: async () => {
        const paths: string[] = [];
        let found = prefix === '';
        await git.walk({
          fs, gitdir: this.dir, trees: [git.TREE({ ref: commit })],
          map: async (path, [entry]) => {
            if (!entry || path === '.') return true;
            if (`${path}/` === prefix) found = true;
            // Only descend into directories on the way to, or inside, `directory`.
            const inside = path.startsWith(prefix) || prefix === '';
            const onTheWay = prefix.startsWith(`${path}/`);
            if (!inside && !onTheWay) return null;
            if ((await entry.type()) === 'blob' && inside) paths.push(path.slice(prefix.length));
            return true;
          },
        });
        // A directory that is not there (moved, misspelt) is an error, not a commit without flags: it must not empty
        // every namespace.
        if (!found) throw new Error(`directory ${JSON.stringify(this.prefix)} is not in commit ${commit}`);
        return paths.sort();
      },
      read: async (path) => {
        const { blob } = await git.readBlob({ fs, gitdir: this.dir, oid: commit, filepath: prefix + path });
        return Buffer.from(blob).toString('utf8');
      },
    };
  }
}

/** isomorphic-git's Node HTTP client with an HTTPS agent carrying the configured CA certificates or no verification. */
function withAgent(config: GitStorageConfig): HttpClient {
  const ca = [config.caCertBytes, config.caCertPath ? readFileSync(config.caCertPath, 'utf8') : ''].filter(Boolean);
  if (ca.length === 0 && !config.insecureSkipTLS) return http;
  const agent = new HttpsAgent({ ...(ca.length ? { ca } : {}), rejectUnauthorized: !config.insecureSkipTLS });
  return { request: (request) => http.request({ ...request, agent } as Parameters<HttpClient['request']>[0]) };
}

/** The repository URL without credentials written into it. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = '';
      u.password = '';
    }
    return u.href;
  } catch {
    return url;
  }
}
