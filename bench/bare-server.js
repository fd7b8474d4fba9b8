// The baseline: bare Fastify answering fixed evaluation-shaped JSON bodies (one per route, taken from Flagpole's own
// answers), on the routes Flagpole serves, with the same JSON body parsing.
'use strict';
const fastify = require('fastify')({ logger: false });
const bodies = JSON.parse(process.env.BARE_BODIES || '{}');
fastify.removeAllContentTypeParsers();
fastify.addContentTypeParser('*', { parseAs: 'string' }, (_req, b, done) => {
  try {
    done(null, b ? JSON.parse(b) : {});
  } catch (e) {
    done(e);
  }
});
for (const [path, body] of Object.entries(bodies)) fastify.post(path, async () => body);
fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(() => process.send && process.send('ready'));
