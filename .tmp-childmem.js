const { fork } = require('node:child_process');
const { readFileSync } = require('node:fs');
function doc(anchors) { const lines = ['flags:', '- key: f', '  name: F', '  metadata:']; for (let i = 0; i < anchors; i++) lines.push(`    a${i}: &a${i} x`, `    b${i}: [${Array(50).fill(`*a${i}`).join(', ')}]`); return `${lines.join('\n')}\n`; }
const flags = process.argv.slice(2);
const child = fork('dist/flags-as-code/document-reading.child.js', [], { execArgv: flags, serialization: 'advanced' });
const hwm = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
let n = 0; const t0 = Date.now();
child.on('message', (m) => {
  if (m.ready) { console.log('ready rss', rss().toFixed(0)); }
  else console.log('answer', Object.keys(m)[0], m.error?.message?.slice(0, 60), 'hwm', hwm().toFixed(0), 'rss', rss().toFixed(0), Date.now() - t0, 'ms');
  if (n++ < 3) child.send({ text: doc(1000), options: { maxAliasNodes: 10000 } }); else child.kill();
});
