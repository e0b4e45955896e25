import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import { MONEY_WRITE_CONCERN } from '../common/write-concern';

export const ETIMS_DEVICES_COLLECTION = 'etims_devices';

/**
 * What KRA's initialisation gave a device: its communication key (KRA gives it once: a second
 * initialisation is answered 902 without it), the control unit id and machine code printed on
 * every receipt.
 */
export interface EtimsDevice {
  /** `<PIN>/<bhfId>/<device serial>`. */
  _id: string;
  cmcKey: string;
  sdcId: string | null;
  mrcNo: string | null;
  initialisedAt: Date;
}

/** The `etims_devices` collection: one document per initialised device. */
@Injectable()
export class EtimsDevicesStore {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  find(id: string): Promise<EtimsDevice | null> {
    return this.devices().findOne({ _id: id });
  }

  /** Keeps the first key KRA gave (two instances initialising at once keep one). */
  async keep(device: EtimsDevice): Promise<EtimsDevice> {
    await this.devices().updateOne({ _id: device._id }, { $setOnInsert: device }, { upsert: true });
    return (await this.find(device._id)) ?? device;
  }

  private devices(): mongo.Collection<EtimsDevice> {
    // KRA gives the key once: a failover must not lose it.
    return this.connection.db!.collection<EtimsDevice>(ETIMS_DEVICES_COLLECTION, {
      writeConcern: MONEY_WRITE_CONCERN,
    });
  }
}
