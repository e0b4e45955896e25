/**
 * The stock ledger's reconciliation, read straight from the database: for every product, the sum
 * of its movements (those copied to `stock_movements` plus those still waiting inside the product
 * document, written there in the same update as their stock change) against its stock; for every
 * batch of seedlings still growing, the same under `batch:<id>` against what the batch holds, and
 * its bookings' holds against what it may hold for them (never overbooked).
 */
import type { Db, Document, Filter } from 'mongodb';

export interface LedgerBalance {
  productId: string;
  productName: string;
  stock: number;
  ledger: number;
  /** Movements waiting in the product document, not yet copied. */
  waiting: number;
  movements: number;
  /**
   * Flagged short (issue 47): a gate sale took its stock below zero, kept as it happened until it
   * is counted again. A negative stock is accepted only when flagged; an unflagged one is a
   * difference.
   */
  short: boolean;
}

export interface LedgerCheck {
  /** Products and batches checked. */
  products: number;
  balanced: number;
  /** Ledger against stock disagree, or a stock below zero not flagged short. */
  differences: LedgerBalance[];
  rows: LedgerBalance[];
  /** Batches whose bookings' holds disagree with what they count as booked, or overbook them. */
  overbooked: string[];
}

interface PendingEntry {
  _id: string;
  change: number;
}

export async function checkStockLedger(db: Db): Promise<LedgerCheck> {
  const sums = new Map<string, { sum: number; count: number }>();
  for await (const row of db.collection('stock_movements').aggregate<{
    _id: string;
    sum: number;
    count: number;
  }>([{ $group: { _id: '$productId', sum: { $sum: '$change' }, count: { $sum: 1 } } }]))
    sums.set(row._id, { sum: row.sum, count: row.count });

  const rows: LedgerBalance[] = [];
  const overbooked: string[] = [];
  const products = db
    .collection('products')
    .find(
      {},
      { projection: { productName: 1, productQuantity: 1, stockShort: 1, pendingMovements: 1 } },
    );
  const batches = db.collection('batches').find(
    {},
    {
      projection: {
        productName: 1,
        readyOn: 1,
        quantity: 1,
        pendingMovements: 1,
        started: 1,
        lost: 1,
        booked: 1,
        available: 1,
        status: 1,
        holds: 1,
      },
    },
  );
  const docs = async function* () {
    for await (const doc of products)
      yield {
        id: doc._id.toString(),
        name: doc.productName,
        stock: doc.productQuantity,
        short: doc.stockShort === true,
        doc,
      };
    for await (const doc of batches) {
      const id = `batch:${doc._id.toString()}`;
      const problem = holdProblem(doc);
      if (problem) overbooked.push(`${doc.productName} (${id}): ${problem}`);
      yield {
        id,
        name: `${doc.productName} batch ready ${doc.readyOn}`,
        stock: doc.quantity,
        short: false,
        doc,
      };
    }
  };
  for await (const { id, name, stock, short, doc } of docs()) {
    const copied = sums.get(id) ?? { sum: 0, count: 0 };
    let ledger = copied.sum;
    let movements = copied.count;
    const waiting = (doc.pendingMovements ?? []) as PendingEntry[];
    if (waiting.length) {
      // A movement copied but not yet removed from the product counts once.
      const done = new Set(
        (
          await db
            .collection<{ _id: string }>('stock_movements')
            .find({ _id: { $in: waiting.map((m) => m._id) } }, { projection: { _id: 1 } })
            .toArray()
        ).map((m) => m._id),
      );
      for (const m of waiting)
        if (!done.has(m._id)) {
          ledger += m.change;
          movements += 1;
        }
    }
    rows.push({
      productId: id,
      productName: String(name ?? ''),
      stock: Number(stock ?? 0),
      ledger,
      waiting: waiting.length,
      movements,
      short,
    });
  }
  const differences = rows.filter(
    (row) => row.ledger !== row.stock || (row.stock < 0 && !row.short),
  );
  return {
    products: rows.length,
    balanced: rows.length - differences.length,
    differences,
    rows,
    overbooked,
  };
}

/**
 * What is wrong with a batch's holds, or null: they add up to what it counts as booked; a growing
 * batch's left-to-book is what its seedlings leave beyond them (never below 0); a ready batch still
 * holds every booked seedling.
 */
function holdProblem(doc: Document): string | null {
  const held = ((doc.holds ?? []) as { seedlings: number }[]).reduce((n, h) => n + h.seedlings, 0);
  if (held !== doc.booked) return `holds add up to ${held}, booked says ${doc.booked}`;
  if (doc.available < 0) return `available is ${doc.available}`;
  if (doc.status === 'Growing') {
    const free = Math.max(0, doc.started - doc.lost - doc.booked);
    if (doc.available !== free) return `available is ${doc.available}, should be ${free}`;
  } else if (doc.available !== 0) return `available is ${doc.available} on a ${doc.status} batch`;
  if (doc.status === 'Ready' && doc.quantity < doc.booked)
    return `holds ${doc.quantity}, fewer than the ${doc.booked} booked`;
  return null;
}

export function printStockLedger(check: LedgerCheck, log: (line: string) => void, all = false) {
  const shown = all ? check.rows : check.differences;
  for (const row of shown)
    log(
      `${row.ledger !== row.stock ? 'DIFF' : row.stock < 0 && !row.short ? 'NEG ' : 'ok  '} ${row.productName} (${row.productId}): ` +
        `stock ${row.stock}, ledger ${row.ledger} in ${row.movements} movements` +
        (row.short ? ' (short: sold at the gate below zero, to be counted)' : '') +
        (row.waiting ? ` (${row.waiting} waiting to be copied)` : ''),
    );
  for (const problem of check.overbooked) log(`OVERBOOKED ${problem}`);
  log(
    `Stock ledger: ${check.balanced} of ${check.products} products and batches balanced, ` +
      `${check.differences.length} with a difference, ${check.overbooked.length} batches overbooked`,
  );
}

/**
 * Sets the stock of the products matching `filter` directly in the database (drills and benches
 * preparing their data) as the API does: with a correction movement in the same update, copied to
 * the ledger by the API's reconciler when it starts.
 */
export async function setStockRecorded(
  db: Db,
  filter: Filter<Document>,
  quantity: number,
  note: string,
): Promise<void> {
  const at = new Date();
  const pending = { $ifNull: ['$pendingMovements', []] };
  await db.collection('products').updateMany(filter, [
    { $set: { __change: { $subtract: [quantity, { $ifNull: ['$productQuantity', 0] }] } } },
    {
      $set: {
        productQuantity: quantity,
        stockSeq: { $add: [{ $ifNull: ['$stockSeq', 0] }, 1] },
      },
    },
    {
      $set: {
        pendingMovements: {
          $concatArrays: [
            pending,
            [
              {
                _id: {
                  $concat: [
                    'set-',
                    { $toString: '$_id' },
                    '-',
                    { $toString: '$stockSeq' },
                    `-${at.getTime()}`,
                  ],
                },
                seq: '$stockSeq',
                reason: 'correction',
                change: '$__change',
                quantityAfter: quantity,
                note: { $literal: note },
                by: null,
                orderId: null,
                purchaseNumber: null,
                at: { $literal: at },
              },
            ],
          ],
        },
      },
    },
    { $unset: '__change' },
  ]);
}
