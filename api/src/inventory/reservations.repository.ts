import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Types, type Model } from 'mongoose';
import type { StockLevel } from '../catalog/catalog.types';
import { Product } from '../catalog/schemas/product.schema';
import { stockUpdate, type MovementMeta, type PendingMovement } from './stock-ledger';
import {
  StockLedgerRepository,
  stockLevelOf,
  type LedgerDoc,
  type StockMovementView,
} from './stock-ledger.repository';

/**
 * An order's stock on its products: reserved when the order is placed (recorded on the product with
 * the order's id, so a step retried after a crash counts once), then settled (kept) or released
 * (given back); and returned once when the order is cancelled (a restock marker, cleared once the
 * order records the return). Each is one conditional update with its movement (see the ledger).
 */
@Injectable()
export class ReservationsRepository {
  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    private readonly ledger: StockLedgerRepository,
  ) {}

  /**
   * Takes `quantity` for an order and records it on the product, with the sale's movement, in one
   * conditional update; answers the product's stock after it (also when this order already holds
   * the same reservation: a retry), null when the stock is short. When it answers, the movement is
   * in the ledger (copied at once; a retry copies it again, once); it leaves the product when the
   * reservation is settled or released.
   */
  async reserve(
    id: string,
    orderId: string,
    quantity: number,
    meta: MovementMeta,
  ): Promise<StockLevel | null> {
    const taken = await this.reserveUncopied(id, orderId, quantity, meta);
    if (taken) await this.ledger.insertMovements(id, taken.productName, taken.movements);
    return taken?.stock ?? null;
  }

  /**
   * `reserve`, leaving the copy of the sale movement to the ledger to the caller (who copies it
   * with others', see OrderStock.settlePlaced): answers the order's movements waiting in the
   * product and the product's stock after the reservation, null when the stock is short. Until copied they wait in the product, where a crash
   * leaves them for the reconcilers, as any movement.
   */
  async reserveUncopied(
    id: string,
    orderId: string,
    quantity: number,
    meta: MovementMeta,
    allowShort = false,
  ): Promise<{ productName: string; movements: PendingMovement[]; stock: StockLevel } | null> {
    const { pipeline } = stockUpdate(
      { by: -quantity },
      { ...meta, orderId },
      {
        shortable: allowShort,
        computed: {
          reservations: {
            $concatArrays: [
              { $ifNull: ['$reservations', []] },
              [{ $literal: { orderId, quantity } }],
            ],
          },
        },
      },
    );
    // A gate sale takes what it hands over even below zero (issue 47); any other sale only what
    // there is, and nothing of a product flagged short until its stock is counted again.
    const filter = {
      _id: new Types.ObjectId(id),
      ...(allowShort ? {} : { productQuantity: { $gte: quantity }, stockShort: { $ne: true } }),
      'reservations.orderId': { $ne: orderId },
    };
    const mine = (doc: LedgerDoc) => ({
      productName: doc.productName,
      movements: (doc.pendingMovements ?? []).filter((m) => m.orderId === orderId),
      stock: stockLevelOf(doc),
    });
    // Only this order's movement comes back (a reservation appends one), not every one waiting
    // in the product: on a product many order at once, those of the placements under way.
    const projection = {
      productName: 1,
      productQuantity: 1,
      stockSeq: 1,
      stockShort: 1,
      pendingMovements: { $elemMatch: { orderId } },
    };
    const doc = (await this.products.collection.findOneAndUpdate(filter, pipeline, {
      returnDocument: 'after',
      projection,
    })) as LedgerDoc | null;
    // The sale goes to the ledger next; it leaves the product when the reservation is settled.
    if (doc) return mine(doc);
    // A retry: the order may already hold this reservation (its movement is copied again, once).
    const held = (await this.products.collection.findOne(
      { _id: new Types.ObjectId(id), reservations: { $elemMatch: { orderId, quantity } } },
      { projection },
    )) as LedgerDoc | null;
    return held ? mine(held) : null;
  }

  /**
   * Gives back what `orderId` reserved here, as a return movement; answers the product's stock
   * after it (null when the order held nothing here).
   */
  async release(id: string, orderId: string, meta: MovementMeta): Promise<StockLevel | null> {
    const doc = await this.products
      .findOne({ _id: id }, { reservations: { $elemMatch: { orderId } } })
      .lean<Pick<Product, 'reservations'>>();
    const quantity = doc?.reservations?.[0]?.quantity;
    if (!quantity) return null;
    // Conditional on the entry too: another instance releasing it meanwhile returns it once.
    const released = await this.ledger.changeStock(
      { _id: new Types.ObjectId(id), reservations: { $elemMatch: { orderId, quantity } } },
      { by: quantity },
      { ...meta, orderId },
      {
        computed: {
          reservations: {
            $filter: {
              input: { $ifNull: ['$reservations', []] },
              cond: { $ne: ['$$this.orderId', { $literal: orderId }] },
            },
          },
        },
        copy: (m) => m.orderId === orderId,
      },
    );
    return released ? stockLevelOf(released) : null;
  }

  /**
   * Forgets an order's reservation, keeping the stock taken (the order is placed), after copying
   * the order's sale movement to the ledger. `copied`: the caller's own `reserve` returned true,
   * so the movement is in the ledger already, and one update removes it and the reservation (what
   * a placement does); otherwise (the reconciler, after a crash) the movement is read and copied
   * first.
   */
  async settle(id: string, orderId: string, copied = false): Promise<boolean> {
    if (copied) {
      const res = await this.products.collection.updateOne({ _id: new Types.ObjectId(id) }, {
        $pull: { reservations: { orderId }, pendingMovements: { orderId } },
      } as never);
      return res.modifiedCount === 1;
    }
    const doc = await this.products.collection.findOne(
      { _id: new Types.ObjectId(id) },
      { projection: { productName: 1, pendingMovements: 1 } },
    );
    if (!doc) return false;
    const entries = ((doc.pendingMovements ?? []) as PendingMovement[]).filter(
      (m) => m.orderId === orderId,
    );
    return this.ledger.copyMovements(doc._id, doc.productName as string, entries, {
      reservations: { orderId },
    });
  }

  /**
   * Settles many orders at once, each of whose `reserveUncopied` answered `movements` here: the
   * movements copied to the ledger in one write, then one update per product removes those
   * orders' reservations and movements. How placements running side by side settle together.
   */
  async settleMany(
    orderIdsByProduct: Map<string, string[]>,
    movements: StockMovementView[],
  ): Promise<void> {
    await this.ledger.insertMovementRows(movements);
    if (!orderIdsByProduct.size) return;
    await this.products.collection.bulkWrite(
      [...orderIdsByProduct].map(([id, orderIds]) => ({
        updateOne: {
          filter: { _id: new Types.ObjectId(id) },
          update: {
            $pull: {
              reservations: { orderId: { $in: orderIds } },
              pendingMovements: { orderId: { $in: orderIds } },
            },
          } as never,
        },
      })),
      { ordered: false },
    );
  }

  /**
   * Returns an order's stock once (with its return movement): a second call changes nothing.
   * Answers the product's stock after it, null when nothing was returned.
   */
  async returnStockOnce(
    id: string,
    orderId: string,
    quantity: number,
    meta: MovementMeta,
  ): Promise<StockLevel | null> {
    const doc = await this.ledger.changeStock(
      { _id: new Types.ObjectId(id), restockedFor: { $ne: orderId } },
      { by: quantity },
      { ...meta, orderId },
      {
        computed: {
          restockedFor: {
            $concatArrays: [{ $ifNull: ['$restockedFor', []] }, [{ $literal: orderId }]],
          },
        },
      },
    );
    return doc && stockLevelOf(doc);
  }

  async clearRestockMarker(id: string, orderId: string): Promise<boolean> {
    const res = await this.products.updateOne(
      { _id: id, restockedFor: orderId },
      { $pull: { restockedFor: orderId } },
    );
    return res.modifiedCount === 1;
  }
}
