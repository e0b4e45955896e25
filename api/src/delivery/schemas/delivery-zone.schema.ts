import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

@Schema({ _id: false })
export class DeliveryZoneArea {
  @Prop({ required: true }) county!: string;
  @Prop({ type: String, default: null }) subCounty!: string | null;
}

/** The key that makes "one place, one zone" atomic: `county|subCounty`, `county|` or `*` (rest of Kenya). */
export const REST_OF_KENYA_KEY = '*';
export const areaKey = (county: string, subCounty?: string | null) =>
  `${county.toLowerCase()}|${(subCounty ?? '').toLowerCase()}`;

@Schema({ collection: 'delivery_zones', timestamps: true })
export class DeliveryZone {
  @Prop({ required: true }) name!: string;
  /** Lower-cased name: two zones cannot share a name. */
  @Prop({ required: true }) nameKey!: string;
  @Prop({ type: [DeliveryZoneArea], default: [] }) areas!: DeliveryZoneArea[];
  @Prop({ default: false }) restOfKenya!: boolean;
  /** One key per place covered; the unique index refuses a place a second zone already covers. */
  @Prop({ type: [String], required: true }) areaKeys!: string[];
  @Prop({ required: true }) fee!: number;
  @Prop({ required: true }) days!: number;
  createdAt!: Date;
  updatedAt!: Date;
}

export const DeliveryZoneSchema = SchemaFactory.createForClass(DeliveryZone);
DeliveryZoneSchema.index({ nameKey: 1 }, { unique: true });
DeliveryZoneSchema.index({ areaKeys: 1 }, { unique: true });
