import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * A scanned paper document kept with what it belongs to (an order's LPO, its tranches' signed delivery
 * notes), its bytes here and nowhere else: private, never in the public uploads. One per owner and
 * kind; a new scan replaces the old one in place.
 */
@Schema({ collection: 'scanned_documents', versionKey: false })
export class ScannedDocument {
  /** What it belongs to: `order`. */
  @Prop({ required: true }) ownerKind!: string;
  @Prop({ required: true }) ownerId!: string;
  /** Which paper: `lpo`; `signedNote:T<n>` (tranche n's signed delivery note). */
  @Prop({ required: true }) kind!: string;
  /** The organisation whose paper it is. */
  @Prop({ type: String, default: null }) organisationId!: string | null;
  /** `application/pdf` as sent, or `image/jpeg` re-encoded from a photo. */
  @Prop({ required: true }) contentType!: string;
  @Prop({ required: true }) size!: number;
  /** SHA-256 of `bytes`, hex. */
  @Prop({ required: true }) sha256!: string;
  /** SHA-256 of the file as uploaded, hex: the same file sent again is known without decoding it. */
  @Prop({ required: true }) sourceSha256!: string;
  @Prop({ type: Buffer, required: true }) bytes!: Buffer;
  /** The account that uploaded it; null once that person is erased. */
  @Prop({ type: String, default: null }) uploadedById!: string | null;
  @Prop({ required: true }) uploadedByRole!: string;
  @Prop({ required: true }) uploadedAt!: Date;
}

export const ScannedDocumentSchema = SchemaFactory.createForClass(ScannedDocument);
ScannedDocumentSchema.index({ ownerKind: 1, ownerId: 1, kind: 1 }, { unique: true });
// A person's export and erasure find their uploads.
ScannedDocumentSchema.index({ uploadedById: 1 });
