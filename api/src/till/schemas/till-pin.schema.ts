import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * A staff member's till PIN (issue 46), hashed as passwords are; `failures` counts wrong tries in
 * a row (one atomic `$inc` each), and TILL_PIN_MAX_TRIES of them lock it until an admin sets one.
 */
@Schema({ collection: 'till_pins', versionKey: false })
export class TillPin {
  /** The staff member's account id. */
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) hash!: string;
  @Prop({ default: 0 }) failures!: number;
  @Prop({ required: true }) setAt!: Date;
}

export const TillPinSchema = SchemaFactory.createForClass(TillPin);
