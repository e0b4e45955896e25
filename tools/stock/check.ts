/**
 * `npm run stock:check`: for every product, the stock ledger's sum against the stock, and for every
 * batch the same under `batch:<id>` against what it holds, and its holds against its bookings;
 * exits 1 on any difference or overbooked batch. Reads MONGODB_URI (npm run stock:check starts or finds the database as the other
 * scripts do). Prints every product; STOCK_CHECK_DIFF_ONLY=1 only those with a difference.
 */
import { MongoClient } from 'mongodb';
import { checkStockLedger, printStockLedger } from './ledger-check';

async function main(): Promise<void> {
  const uri = process.env.MONGODB_URI;
  if (!uri) throw new Error('MONGODB_URI is not set: run through npm run stock:check');
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 10_000 });
  try {
    const check = await checkStockLedger(client.db());
    printStockLedger(check, (line) => console.log(line), process.env.STOCK_CHECK_DIFF_ONLY !== '1');
    if (check.differences.length || check.overbooked.length) process.exitCode = 1;
  } finally {
    await client.close();
  }
}

main().catch((error: Error) => {
  console.error(`stock:check failed: ${error.message}`);
  process.exit(2);
});
