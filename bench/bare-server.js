// The baseline: bare Fastify answering a fixed evaluation-shaped JSON body, on the same routes Flagpole serves.
'use strict';
const fastify = require('fastify')({ logger: false });
const body = JSON.parse(process.env.BARE_BODY || '{}');
fastify.removeAllContentTypeParsers();
fastify.addContentTypeParser('*', { parseAs: 'string' }, (_req, b, done) => {
  try {
    done(null, b ? JSON.parse(b) : {});
  } catch (e) {
    done(e);
  }
});
for (const path of ['/evaluate/v1/boolean', '/evaluate/v1/variant', '/evaluate/v1/batch']) fastify.post(path, async () => body);
fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(() => process.send && process.send('ready'));
