import { Registry } from 'prom-client';
import { BufferedCounter } from './buffered-counter';

describe('BufferedCounter', () => {
  const line = (text: string, labels: string) => text.split('\n').find((l) => l.startsWith(`hits_total{${labels}}`));

  it('shows buffered increments on the next scrape, once', async () => {
    const registry = new Registry();
    const counter = new BufferedCounter({ name: 'hits_total', help: 'hits', labelNames: ['route'], registers: [registry] });
    const a = counter.labels('/a');
    const b = counter.labels('/b');
    a.inc();
    a.inc();
    b.inc();
    let text = await registry.metrics();
    expect(line(text, 'route="/a"')).toBe('hits_total{route="/a"} 2');
    expect(line(text, 'route="/b"')).toBe('hits_total{route="/b"} 1');

    text = await registry.metrics();
    expect(line(text, 'route="/a"')).toBe('hits_total{route="/a"} 2');
    a.inc();
    text = await registry.metrics();
    expect(line(text, 'route="/a"')).toBe('hits_total{route="/a"} 3');
  });

  it('hands back one child per label values, and counts what every holder adds', async () => {
    const registry = new Registry();
    const counter = new BufferedCounter({ name: 'hits_total', help: 'hits', labelNames: ['route'], registers: [registry] });
    expect(counter.labels('/a')).toBe(counter.labels('/a'));
    counter.labels('/a').inc();
    counter.labels('/a').inc();
    expect(line(await registry.metrics(), 'route="/a"')).toBe('hits_total{route="/a"} 2');
  });
});
