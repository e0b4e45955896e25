import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument } from 'mongoose';

/** The shop's own photo for one place of the storefront (a hero slide, a collection, About). */
@Schema({ collection: 'site_pictures', timestamps: true })
export class SitePicture {
  @Prop({ required: true })
  slot!: string;

  @Prop({ required: true })
  url!: string;

  @Prop()
  width?: number;

  @Prop()
  height?: number;

  /** The stored files, removed when the picture is replaced or taken away. */
  @Prop({ type: [String], default: [] })
  keys!: string[];

  /** A looping clip played over the picture on hero slides, where the shopper's connection allows. */
  @Prop()
  video?: string;

  createdAt!: Date;
  updatedAt!: Date;
}

export type SitePictureDocument = HydratedDocument<SitePicture>;
export const SitePictureSchema = SchemaFactory.createForClass(SitePicture);
SitePictureSchema.index({ slot: 1 }, { unique: true });
