/**
 * Do multi-document transactions work on this server, and how does a placement as one transaction
 * compare with the saga's writes under contention on ONE hot product? The figures behind the
 * "Order placement: round trips" in docs/benchmarks.md. The driver alone (no API): WORKERS concurrent
 * placements of one seedling of one product for SECONDS, twice each way; prints whether a
 * transaction commits and aborts, then orders/s, p50/p99 ms, retries (write conflicts), failures
 * and commands per order placed. Needs a server advertising a replica set, e.g.
 * `secantusd-rs --port 47018 --storage-path /tmp/txn` (without `--standalone`). Drops its own
 * `txnprobe` database.
 *
 * Usage: npx tsx tools/bench/placement-transactions.ts mongodb://127.0.0.1:47018/?directConnection=true [seconds] [workers]
 */
import { MongoClient, ObjectId } from 'mongodb';

const uri = process.argv[2]!;
const SECONDS = Number(process.argv[3] ?? 10);
const WORKERS = Number(process.argv[4] ?? 10);
const W = { w: 'majority' as const, wtimeout: 10000 };

async function main() {
  const client = await MongoClient.connect(uri);
  const db = client.db('txnprobe');
  await db.dropDatabase();
  const products = db.collection('products');
  const orders = db.collection('orders');
  const movements = db.collection('stock_movements');
  await orders.insertOne({ _id: new ObjectId(), warm: true });
  await movements.insertOne({ _id: 'warm' as never });
  const hello = await db.admin().command({ hello: 1 });
  console.log(
    `hello: setName=${hello.setName} isWritablePrimary=${hello.isWritablePrimary} version=${(await db.admin().command({ buildInfo: 1 })).version}`,
  );
  // 1. Does a transaction commit, and does an aborted one leave nothing?
  const session = client.startSession();
  try {
    session.startTransaction({ writeConcern: W });
    await orders.insertOne({ probe: 'committed' }, { session });
    await movements.insertOne({ _id: 'probe-committed' as never }, { session });
    await session.commitTransaction();
    session.startTransaction({ writeConcern: W });
    await orders.insertOne({ probe: 'aborted' }, { session });
    const inside = await orders.countDocuments({ probe: 'aborted' }, { session });
    const outside = await orders.countDocuments({ probe: 'aborted' });
    await session.abortTransaction();
    const after = await orders.countDocuments({ probe: { $in: ['committed', 'aborted'] } });
    console.log(
      `transactions: commit ok; inside the aborted one it saw ${inside}, outside ${outside}; after abort ${after} probe orders (1 expected)`,
    );
  } catch (error) {
    console.log(
      `transactions: FAILED: ${(error as Error).message} (code ${(error as { code?: number }).code}, labels ${JSON.stringify((error as { errorLabels?: string[] }).errorLabels)})`,
    );
    await session.endSession();
    await client.close();
    return;
  }
  await session.endSession();

  // 2. One hot product, WORKERS concurrent placements for SECONDS: the saga's writes vs a transaction's.
  for (const mode of ['saga', 'transaction', 'saga', 'transaction'] as const) {
    const productId = new ObjectId();
    await products.insertOne({
      _id: productId,
      productName: 'Hot',
      productQuantity: 1_000_000,
      stockSeq: 0,
      reservations: [],
      pendingMovements: [],
    });
    let placed = 0;
    let retries = 0;
    let failed = 0;
    const latencies: number[] = [];
    const end = Date.now() + SECONDS * 1000;
    const worker = async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        try {
          if (mode === 'saga') await saga(productId);
          else retries += await transaction(productId);
          placed++;
          latencies.push(performance.now() - t0);
        } catch (error) {
          failed++;
          if (failed < 3) console.log(`${mode}: ${(error as Error).message}`);
        }
      }
    };
    const cmdsBefore = commands;
    await Promise.all(Array.from({ length: WORKERS }, worker));
    latencies.sort((a, b) => a - b);
    const p = (q: number) => latencies[Math.floor(q * (latencies.length - 1))]?.toFixed(1);
    const product = await products.findOne({ _id: productId });
    const sold = await movements.countDocuments({ productId: productId.toString() });
    console.log(
      `| ${mode} | ${WORKERS} | ${(placed / SECONDS).toFixed(1)} | ${p(0.5)} | ${p(0.99)} | ${retries} | ${failed} | ${((commands - cmdsBefore) / Math.max(1, placed)).toFixed(2)} | stock ${1_000_000 - (product!.productQuantity as number)} for ${placed} placed, ${sold} movements |`,
    );
  }
  await client.close();

  async function saga(productId: ObjectId) {
    const orderId = new ObjectId();
    const oid = orderId.toString();
    await orders.insertOne(
      {
        _id: orderId,
        placement: 'reserving',
        products: [{ productId: productId.toString(), quantity: 1 }],
        createdAt: new Date(),
      },
      { writeConcern: W },
    );
    const movementId = new ObjectId().toHexString();
    const doc = await products.findOneAndUpdate(
      { _id: productId, productQuantity: { $gte: 1 }, 'reservations.orderId': { $ne: oid } },
      [
        {
          $set: {
            productQuantity: { $add: ['$productQuantity', -1] },
            stockSeq: { $add: ['$stockSeq', 1] },
            reservations: {
              $concatArrays: ['$reservations', [{ $literal: { orderId: oid, quantity: 1 } }]],
            },
          },
        },
        {
          $set: {
            pendingMovements: {
              $concatArrays: [
                '$pendingMovements',
                [
                  {
                    _id: { $literal: movementId },
                    seq: '$stockSeq',
                    change: -1,
                    quantityAfter: '$productQuantity',
                    orderId: { $literal: oid },
                  },
                ],
              ],
            },
          },
        },
      ],
      { returnDocument: 'after', projection: { productName: 1, pendingMovements: 1 } },
    );
    if (!doc) throw new Error('out of stock');
    const m = (doc.pendingMovements as { _id: string; orderId: string }[]).find(
      (x) => x._id === movementId,
    )!;
    await movements.insertOne({ ...m, productId: productId.toString() } as never);
    await orders.updateOne(
      { _id: orderId, placement: 'reserving' },
      { $set: { placement: 'placed' } },
      { writeConcern: W },
    );
    await products.updateOne({ _id: productId }, {
      $pull: { reservations: { orderId: oid }, pendingMovements: { orderId: oid } },
    } as never);
    await orders.updateOne(
      { _id: orderId },
      { $set: { ledgerSettled: true } },
      { writeConcern: W },
    );
  }

  /** Answers the retries it took (write conflicts on the hot product). */
  async function transaction(productId: ObjectId): Promise<number> {
    const s = client.startSession();
    let attempts = 0;
    try {
      await s.withTransaction(
        async () => {
          attempts++;
          const orderId = new ObjectId();
          await orders.insertOne(
            {
              _id: orderId,
              placement: 'placed',
              products: [{ productId: productId.toString(), quantity: 1 }],
              createdAt: new Date(),
            },
            { session: s },
          );
          const doc = await products.findOneAndUpdate(
            { _id: productId, productQuantity: { $gte: 1 } },
            [
              {
                $set: {
                  productQuantity: { $add: ['$productQuantity', -1] },
                  stockSeq: { $add: ['$stockSeq', 1] },
                },
              },
            ],
            {
              returnDocument: 'after',
              projection: { productQuantity: 1, stockSeq: 1 },
              session: s,
            },
          );
          if (!doc) throw new Error('out of stock');
          await movements.insertOne(
            {
              _id: new ObjectId().toHexString() as never,
              seq: doc.stockSeq,
              change: -1,
              quantityAfter: doc.productQuantity,
              orderId: orderId.toString(),
              productId: productId.toString(),
            },
            { session: s },
          );
        },
        { writeConcern: W },
      );
    } finally {
      await s.endSession();
    }
    return attempts - 1;
  }
}

let commands = 0;
const connect = MongoClient.connect.bind(MongoClient);
MongoClient.connect = (async (u: string, o?: object) => {
  const c = await connect(u, { ...o, monitorCommands: true });
  c.on('commandStarted', (e) => {
    if (e.commandName !== 'endSessions') commands++;
  });
  return c;
}) as typeof MongoClient.connect;

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
