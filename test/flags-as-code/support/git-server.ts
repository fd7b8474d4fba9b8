/**
 * A real Git server on loopback for the tests: `git http-backend` (Git's own smart-HTTP CGI program) behind a small
 * Node HTTP server, serving the bare repositories of one directory; optionally requiring an Authorization header.
 * Tests change a repository with the `git` command in a working copy and push to the bare repository's path.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';

export interface GitServer {
  url: string;
  /** Requests seen, with the Authorization header each carried. */
  requests: Array<{ path: string; authorization?: string }>;
  close(): Promise<void>;
}

const BACKEND = '/usr/lib/git-core/git-http-backend';

/**
 * Serves `root`'s bare repositories at `/<name>.git`; with `authorization`, other requests get 401; with `tls` (PEM
 * key and certificate), over HTTPS.
 */
export async function startGitServer(root: string, authorization?: string, tls?: { key: string; cert: string }): Promise<GitServer> {
  const requests: GitServer['requests'] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({ path: url.pathname, authorization: req.headers.authorization });
    if (authorization && req.headers.authorization !== authorization) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('unauthorized');
      return;
    }
    const cgi = spawn(BACKEND, [], {
      env: {
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    req.pipe(cgi.stdin);
    // The CGI answer: headers, a blank line, the body.
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const [name, ...rest] = line.split(':');
        const value = rest.join(':').trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    cgi.on('close', () => res.end());
  };
  const server: Server = tls ? (createHttpsServer(tls, handle) as unknown as Server) : createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A self-signed certificate for 127.0.0.1 (Debian's openssl), as PEM files in `dir`. */
export function selfSignedCertificate(dir: string): { key: string; cert: string; certPath: string } {
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'pipe' });
  return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8'), certPath };
}

const GIT_ENV = { GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 't@example.com' };

/** A bare repository `<root>/<name>.git` and a working copy to commit and push from. */
export function createRepository(root: string, name: string) {
  const bare = join(root, `${name}.git`);
  const work = join(root, `${name}-work`);
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, stdio: 'pipe' }).toString().trim();
  mkdirSync(work, { recursive: true });
  git(root, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  git(work, 'init', '--quiet', '--initial-branch=main');
  git(work, 'remote', 'add', 'origin', bare);
  return {
    /** Writes the files, commits and pushes; the new commit's id. */
    commit(files: Record<string, string>, message = 'change'): string {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(work, path, '..'), { recursive: true });
        writeFileSync(join(work, path), text);
      }
      git(work, 'add', '-A');
      git(work, 'commit', '--quiet', '--allow-empty', '-m', message);
      git(work, 'push', '--quiet', 'origin', 'HEAD:main');
      return git(work, 'rev-parse', 'HEAD');
    },
    /** Points the bare repository's HEAD at `ref` (`refs/heads/…`), whether that branch exists or not. */
    pointHeadAt(ref: string): void {
      git(root, '--git-dir', bare, 'symbolic-ref', 'HEAD', ref);
    },
    /** Tags the last commit (an annotated tag, as releases are) and pushes the tag (moving it if it exists). */
    tag(name: string): void {
      git(work, 'tag', '--force', '--annotate', '--message', name, name);
      git(work, 'push', '--quiet', '--force', 'origin', `refs/tags/${name}`);
    },
  };
}
