// Two tiers: pure unit tests beside the code (src/**/*.spec.ts) and end-to-end tests over real HTTP
// against a real database (test/**/*.e2e-spec.ts). `npm test` runs both, one file at a time.
const tsJest = { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] };
// OpenTelemetry's OTLP/HTTP transport loads `http` with a dynamic import(), which Jest's module sandbox never settles
// (exports hang): its files are compiled to CommonJS like ours, where that import is a require.
const otlpHttp = '@opentelemetry/otlp-exporter-base/';
const e2eTransform = { ...tsJest, [`/${otlpHttp}.+\\.js$`]: ['ts-jest', { diagnostics: false, tsconfig: { allowJs: true, module: 'commonjs' } }] };
const { SQLITE_ONLY } = require('./test/support/sqlite-only');
// On PostgreSQL and MySQL, the suites that do not depend on the dialect are left out (test/support/sqlite-only.js).
const dialectOnly = (process.env.FLAGPOLE_TEST_DIALECT || 'sqlite') === 'sqlite' ? [] : SQLITE_ONLY.map((path) => `<rootDir>/${path}`);
module.exports = {
  testTimeout: 60000,
  // Prints which dialects this run covers and which it skips (and whether their servers answer).
  globalSetup: '<rootDir>/test/support/dialect-report.js',
  // Child processes (OIDC provider, clients) and gRPC channels can outlive a file by a moment; never hang CI on them.
  forceExit: true,
  projects: [
    { displayName: 'unit', testEnvironment: 'node', rootDir: __dirname, roots: ['<rootDir>/src'], testMatch: ['**/*.spec.ts'], transform: tsJest },
    {
      displayName: 'e2e', testEnvironment: 'node', rootDir: __dirname, roots: ['<rootDir>/test'], testMatch: ['**/*.e2e-spec.ts'],
      transform: e2eTransform, transformIgnorePatterns: [`/node_modules/(?!${otlpHttp})`], testPathIgnorePatterns: ['/node_modules/', ...dialectOnly],
    },
  ],
};
