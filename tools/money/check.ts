/**
 * `npm run money:check`: the money ledger against the orders, their refunds and every M-Pesa record
 * (tools/money/ledger-check.ts); prints the money figures and every problem, exits 1 on any. Reads
 * MONGODB_URI (npm run money:check starts or finds the database as the other scripts do; set it to
 * check any other database).
 */
import { MongoClient } from 'mongodb';
import { checkMoneyLedger, printMoneyLedger } from './ledger-check';

async function main(): Promise<void> {
  const uri = process.env.MONGODB_URI;
  if (!uri) throw new Error('MONGODB_URI is not set: run through npm run money:check');
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 10_000 });
  try {
    const check = await checkMoneyLedger(client.db());
    printMoneyLedger(
      check,
      (line) => console.log(line),
      Number(process.env.MONEY_CHECK_SHOW ?? 50),
    );
    if (check.problems.length) process.exitCode = 1;
  } finally {
    await client.close();
  }
}

main().catch((error: Error) => {
  console.error(`money:check failed: ${error.message}`);
  process.exit(2);
});
