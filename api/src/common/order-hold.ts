import type { Actor, Principal } from './principal';

/** What a hold needs of an order: its id, number, lines and where its stock return stands. */
export interface HeldOrder {
  _id: string;
  purchaseNumber: string;
  products: { product: { _id: string }; quantity: number; unit?: { seedlings: number } | null }[];
  stockReturn?: string;
}

/**
 * How an order holds what it sells from placement to hand-over: ready stock (inventory's
 * `ReadyStockHold`) or seedlings on a growing batch (batches' `BatchHold`). Orders ask the hold,
 * never which kind it is.
 */
export interface OrderHold {
  /** Every hold of the order given back (an undone placement); a line never held is left. */
  releaseAll(order: HeldOrder): Promise<void>;
  /**
   * A cancelled order's lines given back, once however often called; `returned` is told when the
   * lines are back and only markers are left to clear.
   */
  giveBack(order: HeldOrder, by: Actor | null, returned: () => Promise<void>): Promise<void>;
  /** The products whose reservations a placement's settle turns into sales (none on a batch). */
  productsToSettle(order: HeldOrder): string[];
  /** The order's reservations made sales after placement (a batch's hold stays until hand-over). */
  settle(order: HeldOrder, reservedHere: boolean): Promise<void>;
  /** Handed over: what is still held leaves as a sale, once. Answers how many seedlings. */
  handOver(order: HeldOrder, by: Actor | null): Promise<number>;
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
