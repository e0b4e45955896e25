import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { ConfigError, loadConfig, type AppConfig } from './config/app-config';

function readConfig(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`The API cannot start. ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

async function bootstrap(): Promise<void> {
  const config = readConfig();
  const app = await createApp(config);
  await app.listen({ port: config.port, host: config.host });
  const url = `http://localhost:${config.port}/api`;
  Logger.log(
    `API ready at ${url} (${config.env})${config.swaggerEnabled ? `; Swagger UI at ${url}/docs` : ''}`,
    'Bootstrap',
  );
}

bootstrap().catch((error: unknown) => {
  console.error('The API failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
