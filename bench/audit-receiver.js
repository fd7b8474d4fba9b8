// The audit bench's webhook receiver, in a process of its own (as a real receiver is elsewhere): answers 200 to
// every POST and reports its port, then, when asked, how many events it received. bench/run.js's tracing modes send
// their OTLP/HTTP spans to it too (an empty 200 is an accepted export).
'use strict';
const http = require('node:http');

let received = 0;
const server = http.createServer((req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => {
    received++;
    res.writeHead(200).end();
  });
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', () => process.send({ received }));
