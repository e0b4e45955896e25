/**
 * Writes the API's OpenAPI document to shared-contracts, from which the apps' types are generated.
 * Run through `npm run contracts:generate` (which gives it a database to boot against).
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createApp } from '../app.factory';
import { loadConfig } from '../config/app-config';
import { createOpenApiDocument } from '../openapi';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn' });
  const app = await createApp(config);
  await app.init();
  const document = createOpenApiDocument(app);
  const target = path.resolve(__dirname, '../../../shared-contracts/src/generated/openapi.json');
  writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
  await app.close();
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
