import { dialectOf, migrationsPath, sqlitePath } from './dialects';

describe('the dialect table', () => {
  it.each([
    ['file:./data/flagpole.db', 'sqlite', 'sqlite'],
    ['sqlite:/abs/x.db', 'sqlite', 'sqlite'],
    ['postgres://u@h:5432/db', 'postgres', 'postgres'],
    ['postgresql://u@h/db', 'postgres', 'postgres'],
    ['cockroach://root@crdb:26257/flagpole?sslmode=disable', 'cockroach', 'postgres'],
    ['cockroachdb://root@crdb:26257/flagpole', 'cockroach', 'postgres'],
    ['mysql://root@h:3306/db', 'mysql', 'mysql'],
    ['mariadb://root@h:3306/db', 'mariadb', 'mysql'],
  ])('%s → %s, migrations/%s', (url, name, folder) => {
    const dialect = dialectOf(url);
    expect(dialect.name).toBe(name);
    expect(migrationsPath(dialect)).toMatch(new RegExp(`migrations/${folder}$`));
  });

  it('speaks the PostgreSQL protocol to CockroachDB, as Flipt does', () => {
    const options = dialectOf('cockroach://root@crdb:26257/flagpole?sslmode=disable').orm('cockroach://root@crdb:26257/flagpole?sslmode=disable');
    expect(options.clientUrl).toBe('postgresql://root@crdb:26257/flagpole?sslmode=disable');
    expect((options.driver as { name: string }).name).toBe('PostgreSqlDriver');
  });

  it('refuses an unknown scheme with a message naming it', () => {
    expect(() => dialectOf('oracle://x')).toThrow('unknown database driver for: "oracle"');
  });

  it('reads SQLite paths from every spelling', () => {
    expect(sqlitePath('file:/abs/x.db?mode=rwc')).toBe('/abs/x.db');
    expect(sqlitePath('file:./rel.db')).toBe('./rel.db');
    expect(sqlitePath('file://x.db')).toBe('x.db');
  });
});
