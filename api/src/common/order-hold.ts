import type { Actor, Principal } from './principal';

/** What holds an order's line: ready stock, or seedlings on a growing batch (by its id). */
export type LineHold = { on: 'stock' } | { on: 'batch'; batchId: string };

/** What a hold needs of an order: its id, number, lines and where its stock return stands. */
export interface HeldOrder {
  _id: string;
  purchaseNumber: string;
  products: { product: { _id: string }; quantity: number; unit?: { seedlings: number } | null }[];
  stockReturn?: string;
}

/**
 * How some lines of an order are held from placement to hand-over: ready stock (inventory's
 * `ReadyStockHold`) or seedlings on a growing batch (bookings' `BookingHold`, on batches'
 * `BatchHold`). Each line is held by one; an order's lines are grouped by their hold, and each
 * method is given the order with only that group's lines (`products`) and the group's `hold`.
 * Orders ask the holds, never which kind they are.
 */
export interface OrderHold<O extends HeldOrder = HeldOrder> {
  /** Every line of the group given back (an undone placement); a line never held is left. */
  releaseAll(order: O, hold: LineHold): Promise<void>;
  /** A cancelled order's lines given back, once however often called. */
  giveBack(order: O, hold: LineHold, by: Actor | null): Promise<void>;
  /**
   * The markers a give-back leaves, cleared once every group's lines are back (absent when it
   * leaves none): the order's return is recorded `done` before, so a crash between gives nothing
   * back twice.
   */
  clearReturnMarkers?(order: O, hold: LineHold): Promise<void>;
  /** The products whose reservations a placement's settle turns into sales (none on a batch). */
  productsToSettle(order: O, hold: LineHold): string[];
  /** The reservations made sales after placement (a batch's hold stays until hand-over). */
  settle(order: O, hold: LineHold, reservedHere: boolean): Promise<void>;
  /** The conditions the order must still meet when it is sent out (none: `{}`). */
  dispatchGuard(order: O, hold: LineHold): Record<string, unknown>;
  /** Refuses (4xx) sending the order out now, when these lines may not go yet. */
  checkDispatch(order: O, hold: LineHold): void | Promise<void>;
  /** Handed over: what is still held leaves as a sale, once. Answers how many seedlings. */
  handOver(order: O, hold: LineHold, by: Actor | null): Promise<number>;
  /**
   * Part of the group handed over (a tranche of an order from a quotation sent out): `seedlings`
   * leave as a sale, once per `part.key`. Answers how many seedlings moved on the ledger.
   */
  handOverPart?(order: O, hold: LineHold, part: HeldPart, by: Actor | null): Promise<number>;
  /**
   * Seedlings handed over that came back undelivered (a tranche delivered short): held for the
   * order again, to go in a later load, once per `part.key`. Answers how many moved on the ledger.
   */
  bringBackPart?(order: O, hold: LineHold, part: HeldPart, by: Actor | null): Promise<number>;
}

/** A part of an order's held seedlings moved at once (a tranche's), named so it moves once. */
export interface HeldPart {
  seedlings: number;
  /** Unique to this move: a retry with the same key moves nothing. */
  key: string;
  /** What the ledger's movement says. */
  note: string;
}

/** A person who acted (credited in the stock ledger), not the shop itself. */
export function personOf(actor: Actor | null | undefined): Principal | null {
  return actor && actor.role !== 'system' ? (actor as Principal) : null;
}

/** A line as a hold takes it: a product, how many units, and the seedlings one unit holds. */
export interface HeldLine {
  productId: string;
  quantity: number;
  seedlings?: number;
}

/** A line placed on hold, named for the refusal when its product is short. */
export interface LineToHold extends HeldLine {
  productName: string;
  unitName: string;
  seedlings: number;
}

/** The seedlings lines take from each product (a tray and singles of one product add up). */
export function seedlingsByProduct(lines: HeldLine[]): Map<string, number> {
  const total = new Map<string, number>();
  for (const line of lines)
    total.set(
      line.productId,
      (total.get(line.productId) ?? 0) + line.quantity * (line.seedlings ?? 1),
    );
  return total;
}

/** One key per hold (lines with equal keys are held together). */
export function holdKey(hold: LineHold): string {
  return hold.on === 'batch' ? `batch:${hold.batchId}` : 'stock';
}
