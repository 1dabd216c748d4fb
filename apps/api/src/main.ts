import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, loadApiConfig } from '@podium/config';
import { createApp } from './app';

async function bootstrap(): Promise<void> {
  const config = loadApiConfig();
  const app = await createApp(config, { emitSchema: process.env['NODE_ENV'] !== 'production' });
  app.enableShutdownHooks();
  await app.listen(config.PORT, config.HOST);
  const url = await app.getUrl();
  new Logger('Podium').log(`API listening on ${url.replace('[::1]', 'localhost')} (GraphQL at ${url}/graphql)`);
}

bootstrap().catch((e: unknown) => {
  if (e instanceof ConfigError) {
    process.stderr.write(`${e.message}\n`);
  } else {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  }
  process.exit(1);
});
