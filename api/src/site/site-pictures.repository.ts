import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { SitePictureSlot } from '@spc/shared-contracts';
import { SitePicture } from './schemas/site-picture.schema';

export interface SitePictureRecord {
  slot: SitePictureSlot;
  url: string;
  width?: number;
  height?: number;
  keys: string[];
  video?: string;
}

/** The only place that touches the site_pictures collection; returns plain records. */
@Injectable()
export class SitePicturesRepository {
  constructor(@InjectModel(SitePicture.name) private readonly pictures: Model<SitePicture>) {}

  async all(): Promise<SitePictureRecord[]> {
    const docs = await this.pictures.find().lean<SitePictureRecord[]>();
    return docs.map(({ slot, url, width, height, keys, video }) => ({
      slot,
      url,
      width,
      height,
      keys: keys ?? [],
      video,
    }));
  }

  async find(slot: SitePictureSlot): Promise<SitePictureRecord | null> {
    return this.pictures.findOne({ slot }).lean<SitePictureRecord>();
  }

  /** Sets the slot's picture; answers the one it replaced (its files are the caller's to remove). */
  async put(record: SitePictureRecord): Promise<SitePictureRecord | null> {
    const unset = record.video ? {} : { $unset: { video: 1 } };
    const { video, ...rest } = record;
    return this.pictures
      .findOneAndUpdate(
        { slot: record.slot },
        { $set: { ...rest, ...(video ? { video } : {}) }, ...unset },
        { upsert: true, new: false },
      )
      .lean<SitePictureRecord>();
  }

  /** Removes the slot's picture; answers it, or null when the slot had none. */
  async remove(slot: SitePictureSlot): Promise<SitePictureRecord | null> {
    return this.pictures.findOneAndDelete({ slot }).lean<SitePictureRecord>();
  }
}
