import { DeliveryQueue, Undeliverable } from './delivery-queue';

/** Items weigh their own value in bytes. */
function queue(send: (batch: number[]) => Promise<void>, capacity = 100, batchSize = 1, maxBytes = 1e9) {
  const dropped: Array<[number, string]> = [];
  const q = new DeliveryQueue<number>({
    send, capacity, batchSize, maxBytes, weigh: (n) => n, initialBackoffMs: 5, maxBackoffMs: 20, onDrop: (n, r) => dropped.push([n, r]),
  });
  return { q, dropped };
}

describe('DeliveryQueue', () => {
  it('delivers in order, retrying a failed item before the ones behind it', async () => {
    const got: number[] = [];
    let failures = 3;
    const { q } = queue(async ([n]) => {
      if (n === 2 && failures-- > 0) throw new Error('down');
      got.push(n);
    });
    for (const n of [1, 2, 3, 4]) q.push(n);
    expect(await q.drained(2000)).toBe(true);
    expect(got).toEqual([1, 2, 3, 4]);
  });

  it('drops an Undeliverable item and goes on', async () => {
    const got: number[] = [];
    const { q, dropped } = queue(async ([n]) => {
      if (n === 2) throw new Undeliverable('refused');
      got.push(n);
    });
    for (const n of [1, 2, 3]) q.push(n);
    await q.drained(2000);
    expect(got).toEqual([1, 3]);
    expect(dropped).toEqual([[1, 'refused']]);
  });

  it('keeps at most `capacity` waiting, dropping the oldest not in flight', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const got: number[] = [];
    const { q, dropped } = queue(async ([n]) => {
      await gate;
      got.push(n);
    }, 3);
    for (const n of [1, 2, 3, 4, 5]) q.push(n);
    expect(q.waiting).toBe(3);
    release();
    await q.drained(2000);
    expect(got).toEqual([1, 4, 5]);
    expect(dropped.length).toBe(2);
  });

  it('keeps at most `maxBytes` waiting, dropping the oldest not in flight, and drops an item larger than that', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const got: number[] = [];
    const { q, dropped } = queue(async ([n]) => {
      await gate;
      got.push(n);
    }, 100, 1, 100);
    // 10 is in flight; 40 and 30 wait (80 bytes); 50 needs room: 40 goes, then 30 would fit beside 10 + 50 (90).
    for (const n of [10, 40, 30, 50]) q.push(n);
    expect(q.waitingBytes).toBe(90);
    q.push(101);
    expect(q.waitingBytes).toBe(90);
    release();
    await q.drained(2000);
    expect(got).toEqual([10, 30, 50]);
    expect(dropped.map(([n]) => n)).toEqual([1, 1]);
    expect(dropped[1][1]).toMatch(/101 bytes is larger than the 100 bytes/);
    expect(q.waitingBytes).toBe(0);
  });

  it('sends batches', async () => {
    const batches: number[][] = [];
    const { q } = queue(async (b) => void batches.push(b), 100, 2);
    for (const n of [1, 2, 3]) q.push(n);
    await q.drained(2000);
    expect(batches.flat()).toEqual([1, 2, 3]);
  });

  it('reports how many are still waiting after each attempt: delivered, to be retried, dropped', async () => {
    const reports: number[] = [];
    let failures = 1;
    const q = new DeliveryQueue<number>({
      send: async ([n]) => {
        if (n === 1 && failures-- > 0) throw new Error('down');
        if (n === 2) throw new Undeliverable('refused');
      },
      capacity: 100, maxBytes: 1e9, weigh: () => 1, batchSize: 1, initialBackoffMs: 5, maxBackoffMs: 20, onDrop: () => undefined,
      onAttempt: (waiting) => reports.push(waiting),
    });
    for (const n of [1, 2, 3]) q.push(n);
    expect(await q.drained(2000)).toBe(true);
    // 1 fails (3 waiting), 1 lands (2), 2 is dropped (1), 3 lands (0).
    expect(reports).toEqual([3, 2, 1, 0]);
  });
});
