import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types, type HydratedDocument } from 'mongoose';
import type { SaleUnit, TaxType } from '@spc/shared-contracts';
import { Category } from './category.schema';

/** Stock an order being placed holds on a product. */
@Schema({ _id: false, versionKey: false })
export class ProductReservation {
  @Prop({ required: true })
  orderId!: string;

  @Prop({ required: true })
  quantity!: number;
}
const ProductReservationSchema = SchemaFactory.createForClass(ProductReservation);

@Schema({ collection: 'products', timestamps: true })
export class Product {
  @Prop({ required: true, trim: true })
  productName!: string;

  @Prop({ trim: true, default: '' })
  productDescription!: string;

  /** Whole KES, more than 0. */
  @Prop({ required: true })
  price!: number;

  /** Kept equal to `price` (the old clients send it; nothing else reads it). */
  @Prop({ required: true })
  initialPrice!: number;

  /** Whole KES below `price` while `onOffer`; 0 otherwise. */
  @Prop({ default: 0 })
  offerPrice!: number;

  @Prop({ default: false })
  onOffer!: boolean;

  /** `offerPrice` when on offer, else `price`: what the price filter and sort use. */
  @Prop({ required: true })
  effectivePrice!: number;

  @Prop({ default: 0 })
  productQuantity!: number;

  /**
   * How the product is sold (issue 29): the first unit is the single seedling, whose price and offer
   * are copies of `price` and the offer above (those win); absent before the units migration.
   */
  @Prop({ type: [Object], default: undefined })
  units?: SaleUnit[];

  @Prop({ type: Types.ObjectId, ref: Category.name, required: true })
  category!: Types.ObjectId;

  /** URL path of the default (640 px) WebP, or empty. */
  @Prop({ default: '' })
  productImage!: string;

  /** URL per width (`{ "320": ..., "640": ... }`), for srcset. */
  @Prop({ type: Object, default: {} })
  productImages!: Record<string, string>;

  /** Storage keys of every stored width, to delete them together. */
  @Prop({ type: [String], default: [], select: false })
  imageKeys!: string[];

  /** Name and description lower-cased, so a search is one case-sensitive literal match. */
  @Prop({ required: true, select: false })
  searchText!: string;

  /** Stock held for orders being placed, one entry each; settled or released soon. */
  @Prop({ type: [ProductReservationSchema], default: [], select: false })
  reservations!: ProductReservation[];

  /** Orders whose stock has been given back to this product, so a retried return counts once. */
  @Prop({ type: [String], default: [], select: false })
  restockedFor!: string[];

  /**
   * Stock movements written with the stock change they describe and not yet copied to the ledger
   * (`stock_movements`); the copy removes them, the stock ledger's reconciler finishes a copy a
   * crash interrupted.
   */
  @Prop({ type: [Object], default: undefined, select: false })
  pendingMovements?: Record<string, unknown>[];

  /** The number of the product's last stock movement. */
  @Prop({ default: 0, select: false })
  stockSeq!: number;

  /**
   * A gate sale took its stock below zero (issue 47): shoppers see none and the shop refuses it
   * until the stock is counted again (a count, or the product form's stock) clears it.
   */
  @Prop({ type: Boolean, default: undefined })
  stockShort?: boolean;

  /** When the product's ledger began (its opening balance); absent until then. */
  @Prop({ type: Date, select: false })
  ledgerSince?: Date;

  /**
   * KRA's tax type of the product (A–E); null: the shop's default tax type. A unit may have its
   * own (`units[].taxType`), which wins.
   */
  @Prop({ type: String, default: null })
  taxType!: TaxType | null;

  /** KRA's item classification code (8 or 10 digits), which eTIMS registers the items with. */
  @Prop({ type: String, default: null })
  itemClassCode!: string | null;

  /** Stock at or below this is low; null uses the shop-wide default (LOW_STOCK_THRESHOLD). */
  @Prop({ type: Number, default: null })
  lowStockThreshold!: number | null;

  createdAt!: Date;
  updatedAt!: Date;
}

export type ProductDocument = HydratedDocument<Product>;
export const ProductSchema = SchemaFactory.createForClass(Product);
// Every filter and sort of the product list (newest first, or by effective price), alone and
// within one category; `_id` breaks ties so pages never overlap.
ProductSchema.index({ createdAt: -1, _id: -1 });
ProductSchema.index({ effectivePrice: 1, _id: 1 });
ProductSchema.index({ category: 1, createdAt: -1, _id: -1 });
ProductSchema.index({ category: 1, effectivePrice: 1, _id: 1 });
ProductSchema.index({ productName: 1 });
// The ledger's reconciler looks for movements not yet copied.
ProductSchema.index({ 'pendingMovements.at': 1 }, { sparse: true });
