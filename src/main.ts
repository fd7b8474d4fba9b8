import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app';
import { loadConfigWithWarnings } from './config/config.loader';
import { runMigrateCommand } from './storage/migrate.command';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const { config, warnings, file } = loadConfigWithWarnings({ argv, env: process.env });
  const logger = new Logger('Flagpole');
  if (file) logger.log(`configuration from ${file}`);
  for (const w of warnings) logger.warn(w);
  if (argv[0] === 'migrate') return runMigrateCommand(config.db);

  const app = await createApp(config);
  await app.listen(config.server.httpPort, config.server.host);
  logger.log(`listening on http://${config.server.host}:${config.server.httpPort} (API explorer at /docs)`);
}

main().catch((e: Error) => {
  // A bad configuration is reported as one message naming every bad key; nothing else to show.
  console.error(e.name === 'ConfigError' ? e.message : (e.stack ?? e.message));
  process.exit(1);
});
