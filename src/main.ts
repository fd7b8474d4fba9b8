import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app';
import { loadConfigurationWithWarnings } from './configuration';
import { GrpcHealthServer } from './health/grpc-health.server';
import { shutdownOnSignals } from './health/graceful-shutdown';
import { rootLogger } from './logging/logger';
import { NestLogger } from './logging/nest-logger';
import { describeCache, describeDatabase } from './startup-report';
import { runMigrateCommand } from './storage/migrate.command';
import { UsageError } from './common/usage-error';
import { COMMANDS, runFlagsAsCodeCommand } from './flags-as-code/flags-as-code.command';
import { DomainError } from './common/errors';
import { runValidateCommand } from './declarative/validate.command';
import { runPolicyCommand } from './authorization/policy.command';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const { config, warnings, file } = loadConfigurationWithWarnings({ argv, env: process.env });
  Logger.overrideLogger(new NestLogger(rootLogger(config.log)));
  const logger = new Logger('Flagpole');
  if (file) logger.log(`configuration from ${file}`);
  for (const w of warnings) logger.warn(w);
  if (argv[0] === 'migrate') return runMigrateCommand(config.db);
  if ((COMMANDS as readonly string[]).includes(argv[0])) return runFlagsAsCodeCommand(argv, config);
  const policyFlag = (a: string) => a === '--policy' || a.startsWith('--policy=');
  if (argv[0] === 'policy' || (argv[0] === 'validate' && argv.some(policyFlag))) return runPolicyCommand(argv.slice(1), config);
  if (argv[0] === 'validate') return runValidateCommand(argv.slice(1).filter((a, i, all) => !a.startsWith('--config') && all[i - 1] !== '--config'));

  const app = await createApp(config);
  await app.listen(config.server.httpPort, config.server.host);
  shutdownOnSignals(app, logger);
  const { port } = app.getHttpServer().address() as { port: number };
  logger.log(`listening on http://${config.server.host}:${port} (API explorer at /docs), gRPC health on ${config.server.host}:${app.get(GrpcHealthServer).port}`);
  logger.log(`database: ${describeDatabase(config.db.url)}; cache: ${describeCache(config.cache)}`);
  logger.log(`started in ${Math.round(process.uptime() * 1000)} ms`);
}

main().catch((e: Error) => {
  // A bad configuration is reported as one message naming every bad key; an invalid document or command line as
  // its message (it names the place); nothing else to show.
  const plain = e.name === 'ConfigError' || e instanceof DomainError || e instanceof UsageError;
  console.error(plain ? e.message : (e.stack ?? e.message));
  process.exit(e instanceof UsageError ? 2 : 1);
});
