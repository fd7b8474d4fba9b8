/**
 * Import documents are read in a process of their own (document-reading.service.ts, issue 38 item 2): evaluations are
 * answered while a document is read, a document that takes longer than `limits.import_read_timeout` or needs more
 * heap than `limits.import_read_heap_mb` is refused with a 400 naming the limit (and the next import is read by a new
 * process), and past `limits.max_imports_waiting` imports waiting their turn the next is a 503.
 */
import { http } from '../support/flagpole';
import { useFlagpole } from '../management/support';
import { anchorsUsed50Times } from '../security/support/hostile-documents';

const YAML = { 'content-type': 'application/yaml' };
/** About 3 MiB whose 400,000 aliases are all allowed here: seconds of reading. */
const SLOW = anchorsUsed50Times(8000);
const SMALL = 'flags:\n- key: small\n  name: Small\n';

describe('import documents are read in a process of their own', () => {
  const ctx = useFlagpole({
    FLAGPOLE_LIMITS_MAX_YAML_ALIAS_NODES: '10000000',
    FLAGPOLE_LIMITS_IMPORT_READ_TIMEOUT: '1s',
    FLAGPOLE_LIMITS_MAX_IMPORTS_WAITING: '1',
  });
  const importInto = (ns: string, text: string) => http(ctx.fp.url, 'POST', `/api/v1/namespaces/${ns}/import`, text, YAML);

  beforeAll(async () => {
    expect((await ctx.api.post('/api/v1/namespaces/default/flags', { key: 'on', name: 'On', type: 'BOOLEAN_FLAG_TYPE', enabled: true })).status).toBe(200);
  });

  it('refuses a document not read within limits.import_read_timeout, answering evaluations meanwhile; the next import is read', async () => {
    const slow = importInto('slow', SLOW);
    // Evaluations sent while it is read are answered, and before it.
    let answeredFirst = 0;
    let importDone = false;
    void slow.then(() => (importDone = true));
    for (let i = 0; i < 5; i++) {
      const r = await ctx.api.post('/evaluate/v1/boolean', { namespaceKey: 'default', flagKey: 'on', entityId: `u${i}` });
      expect({ status: r.status, enabled: r.body.enabled }).toEqual({ status: 200, enabled: true });
      if (!importDone) answeredFirst++;
    }
    expect(answeredFirst).toBeGreaterThan(0);
    const refused = await slow;
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: 3, message: 'the document could not be read within 1 s (limits.import_read_timeout)', details: [] });
    expect((await ctx.api.get('/api/v1/namespaces/slow')).status).toBe(404);
    const next = await importInto('after', SMALL);
    expect(next.status).toBe(200);
    expect((await ctx.api.get('/api/v1/namespaces/after/flags/small')).status).toBe(200);
  });
});

describe('imports waiting to be read', () => {
  // Heap enough for SLOW to be read whole: each takes seconds in the process, so three sent at once find it busy.
  const ctx = useFlagpole({
    FLAGPOLE_LIMITS_MAX_YAML_ALIAS_NODES: '10000000', FLAGPOLE_LIMITS_MAX_IMPORTS_WAITING: '1', FLAGPOLE_LIMITS_IMPORT_READ_HEAP_MB: '1024',
  });
  const importInto = (ns: string, text: string) => http(ctx.fp.url, 'POST', `/api/v1/namespaces/${ns}/import`, text, YAML);

  it('answers 503 past limits.max_imports_waiting, and reads the others in turn', async () => {
    expect((await importInto('warm', SMALL)).status).toBe(200); // the thread has started
    // One is read, one waits its turn, and the last to arrive finds the queue full, whichever order they come in.
    const answers = await Promise.all(['q1', 'q2', 'q3'].map((ns) => importInto(ns, SLOW)));
    const refused = answers.filter((r) => r.status === 503);
    expect(refused.map((r) => r.body)).toEqual([
      { code: 14, message: 'too many imports waiting to be read (limits.max_imports_waiting: 1); retry later', details: [] },
    ]);
    // The others were read in turn (what they need of the heap or time decides their answer, not the queue).
    for (const r of answers.filter((x) => x.status !== 503)) expect([200, 400]).toContain(r.status);
  });
});

describe('the reading process\'s heap', () => {
  // Room for the process itself (under ts-jest it loads the TypeScript compiler through ts-node), not for WIDE: 3.5
  // million list items (7 MB, under limits.max_import_bytes), whose parser nodes are all alive at once, several
  // hundred MB of them. This server runs inside Jest, which `npm test` starts with --max-old-space-size=6144: that flag
  // would override a worker thread's heap cap (it did, and CI read WIDE whole), not a child process's.
  const WIDE = `flags:\n- key: f\n  name: F\n  metadata:\n    wide: [${'1,'.repeat(3_500_000)}1]\n`;
  // And time enough to fill it, so that the heap is what refuses it, however busy the machine.
  const ctx = useFlagpole({
    FLAGPOLE_LIMITS_MAX_YAML_ALIAS_NODES: '10000000', FLAGPOLE_LIMITS_IMPORT_READ_HEAP_MB: '160', FLAGPOLE_LIMITS_IMPORT_READ_TIMEOUT: '100s',
  });

  it('refuses a document that needs more than limits.import_read_heap_mb, and goes on', async () => {
    const refused = await http(ctx.fp.url, 'POST', '/api/v1/namespaces/big/import', WIDE, YAML);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('the document needs more than 160 MiB to read (limits.import_read_heap_mb)');
    expect((await http(ctx.fp.url, 'POST', '/api/v1/namespaces/small/import', SMALL, YAML)).status).toBe(200);
    expect((await ctx.api.get('/health')).status).toBe(200);
  }, 150_000);
});
