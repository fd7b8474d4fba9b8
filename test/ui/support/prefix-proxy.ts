/**
 * A reverse proxy on loopback that serves Flagpole under a path prefix, as nginx would with
 * `location /flagpole/ { proxy_pass http://flagpole/; proxy_set_header X-Forwarded-Prefix /flagpole; }`: it strips
 * the prefix, passes Host through, and redirects the bare prefix to the prefix with a slash. It listens before
 * Flagpole starts, so that its address can be Flagpole's OIDC redirect address.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PrefixProxy {
  /** `http://127.0.0.1:<port>/flagpole` */
  url: string;
  setTarget(url: string): void;
  close(): Promise<void>;
}

export async function startPrefixProxy(prefix = '/flagpole'): Promise<PrefixProxy> {
  let target: URL | undefined;
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === prefix) {
      res.writeHead(301, { location: `${prefix}/` }).end();
      return;
    }
    if (!target || !url.startsWith(`${prefix}/`)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not behind the prefix\n');
      return;
    }
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: url.slice(prefix.length), headers: { ...req.headers, 'x-forwarded-prefix': prefix } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    setTarget: (url) => {
      target = new URL(url);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
