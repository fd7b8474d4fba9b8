/**
 * The database connection pool, read when Prometheus scrapes (nothing is recorded per query): connections in use and
 * idle, the pool's maximum, and callers waiting for a connection — a growing wait count means the pool
 * (`db.max_open_conn`) is too small for the load or the database is slow.
 */
import { Injectable } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/core';
import { Gauge } from 'prom-client';
import { MetricsRegistry } from './metrics.registry';

/** The parts of knex's tarn pool read here. */
interface Pool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}

@Injectable()
export class DatabasePoolMetrics {
  constructor(metrics: MetricsRegistry, orm: MikroORM) {
    const pool = (): Pool | undefined => {
      try {
        const knex = (orm.em.getConnection() as unknown as { getKnex(): { client: { pool?: Pool } } }).getKnex();
        return knex.client.pool ?? undefined;
      } catch {
        return undefined; // closed, or not a knex-based driver
      }
    };
    const registers = [metrics.registry];
    new Gauge({
      name: 'flagpole_db_pool_connections',
      help: 'Database connections by state (in_use, idle) and the pool maximum (max)',
      labelNames: ['state'],
      registers,
      collect() {
        const p = pool();
        if (!p) return;
        this.set({ state: 'in_use' }, p.numUsed());
        this.set({ state: 'idle' }, p.numFree());
        this.set({ state: 'max' }, p.max);
      },
    });
    new Gauge({
      name: 'flagpole_db_pool_pending_acquires',
      help: 'Callers waiting for a database connection',
      registers,
      collect() {
        const p = pool();
        if (p) this.set(p.numPendingAcquires());
      },
    });
  }
}
