// The baseline: bare Fastify answering fixed evaluation-shaped JSON bodies (one per route, taken from Flagpole's own
// answers), on the routes Flagpole serves, with the same JSON body parsing. A route given an ETag (BARE_ETAGS, taken
// from Flagpole too) sends it with its body, and answers a request holding it in If-None-Match with a bodiless 304.
'use strict';
const fastify = require('fastify')({ logger: false });
const bodies = JSON.parse(process.env.BARE_BODIES || '{}');
const etags = JSON.parse(process.env.BARE_ETAGS || '{}');
fastify.removeAllContentTypeParsers();
fastify.addContentTypeParser('*', { parseAs: 'string' }, (_req, b, done) => {
  try {
    done(null, b ? JSON.parse(b) : {});
  } catch (e) {
    done(e);
  }
});
for (const [path, body] of Object.entries(bodies)) {
  const etag = etags[path];
  if (etag === undefined) {
    fastify.post(path, async () => body);
    continue;
  }
  fastify.post(path, async (req, reply) => {
    reply.header('etag', etag);
    if (req.headers['if-none-match'] !== etag) return body;
    return reply.code(304).send();
  });
}
fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(() => process.send && process.send('ready'));
