import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument } from 'mongoose';

@Schema({ collection: 'categories', timestamps: true })
export class Category {
  @Prop({ required: true, trim: true })
  name!: string;

  /** The name lower-cased: names are unique whatever their case, and the list sorts on it. */
  @Prop({ required: true })
  nameKey!: string;

  @Prop({ trim: true, default: '' })
  description!: string;

  createdAt!: Date;
  updatedAt!: Date;
}

export type CategoryDocument = HydratedDocument<Category>;
export const CategorySchema = SchemaFactory.createForClass(Category);
CategorySchema.index({ nameKey: 1 }, { unique: true });
