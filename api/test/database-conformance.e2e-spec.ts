/**
 * The database server the suite runs on keeps every promise the API's one code path relies on:
 * atomic conditional updates under concurrency, duplicate-key answers, limit counters (a
 * conditional upsert) and held slots (a partial unique index on an array), `$elemMatch` on
 * sub-documents, findOneAndUpdate with a projection, TTL indexes (tools/db/probe.ts).
 */
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { checkConformance, serverName } from '../../tools/db/probe';
import { withDatabaseName } from '../../tools/db/launcher';
import { serverUri } from './support/test-app';

describe('database server conformance', () => {
  let client: MongoClient;
  const name = `e2e_conformance_${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    client = await MongoClient.connect(withDatabaseName(serverUri(), name), { maxPoolSize: 50 });
  });
  afterAll(async () => {
    await client.db(name).dropDatabase();
    await client.close();
  });

  it('keeps every assumption the API relies on', async () => {
    const db = client.db(name);
    const lines: string[] = [`server: ${await serverName(db)}`];
    await checkConformance(db, { ttlRemoval: true, log: (line) => lines.push(line) });
    console.log(lines.join('\n'));
  }, 240_000);
});
