import { BadRequestException, Injectable } from '@nestjs/common';
import {
  isSitePictureSlot,
  SITE_PICTURE_LABELS,
  SITE_PICTURE_SLOTS,
  slotTakesVideo,
  type SitePictureSlot,
} from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import { ImageService } from '../storage/image.service';
import { UPLOADS_URL_PREFIX } from '../storage/storage.service';
import type { SitePictureDto } from './dto/site-picture.dto';
import { SitePicturesRepository, type SitePictureRecord } from './site-pictures.repository';

/** Widths stored per place (for the sizes the storefront shows them at), and the one answered. */
const SIZES: Record<'hero' | 'collection' | 'about', { widths: number[]; default: number }> = {
  hero: { widths: [800, 1200, 1600], default: 1200 },
  collection: { widths: [300, 600], default: 600 },
  about: { widths: [800, 1600], default: 800 },
};

function sizesFor(slot: SitePictureSlot) {
  if (slot.startsWith('hero-')) return SIZES.hero;
  if (slot.startsWith('collection-')) return SIZES.collection;
  return SIZES.about;
}

const MAX_VIDEO_URL = 500;

/** A video must be an MP4 among the shop's own uploads or at an https address. */
function checkVideo(slot: SitePictureSlot, raw: string | undefined): string | undefined {
  const video = raw?.trim();
  if (!video) return undefined;
  if (!slotTakesVideo(slot))
    throw new BadRequestException(
      'Only the home banner slides (hero-1, hero-2, hero-3) take a video',
    );
  let path: string;
  try {
    const url = new URL(video, 'http://relative.invalid');
    const relative = url.host === 'relative.invalid' && video.startsWith(UPLOADS_URL_PREFIX);
    if (!(url.protocol === 'https:' || relative) || video.length > MAX_VIDEO_URL) throw new Error();
    path = url.pathname;
  } catch {
    throw new BadRequestException(
      `The video must be an https:// address or a path under ${UPLOADS_URL_PREFIX}, at most ${MAX_VIDEO_URL} characters`,
    );
  }
  if (!/\.mp4$/i.test(path)) throw new BadRequestException('The video must be an MP4 file (.mp4)');
  return video;
}

/** The shop's own photos for the storefront's hero slides, collections and About page. */
@Injectable()
export class SitePicturesService {
  constructor(
    private readonly repository: SitePicturesRepository,
    private readonly images: ImageService,
    private readonly audit: AuditService,
  ) {}

  /** Refuses a place the storefront does not have, naming the ones it has. */
  slot(value: string): SitePictureSlot {
    if (!isSitePictureSlot(value)) {
      throw new BadRequestException(
        `Unknown picture place "${value.slice(0, 40)}": use one of ${SITE_PICTURE_SLOTS.join(', ')}`,
      );
    }
    return value;
  }

  async all(): Promise<Partial<Record<SitePictureSlot, SitePictureDto>>> {
    const pictures: Partial<Record<SitePictureSlot, SitePictureDto>> = {};
    for (const record of await this.repository.all()) {
      if (isSitePictureSlot(record.slot)) pictures[record.slot] = view(record);
    }
    return pictures;
  }

  async put(
    actor: Principal,
    slot: SitePictureSlot,
    bytes: Buffer,
    videoField?: string,
  ): Promise<SitePictureDto> {
    const video = checkVideo(slot, videoField);
    const sizes = sizesFor(slot);
    const stored = await this.images.store(bytes, `site/${slot}`, sizes.widths, sizes.default);
    const record: SitePictureRecord = {
      slot,
      url: stored.url,
      width: stored.width,
      height: stored.height,
      keys: stored.keys,
      video,
    };
    let previous: SitePictureRecord | null;
    try {
      previous = await this.repository.put(record);
    } catch (error) {
      await this.images.remove(stored.keys);
      throw error;
    }
    if (previous) await this.images.remove(previous.keys.filter((k) => !stored.keys.includes(k)));
    await this.audit.record(
      actor,
      'site-picture.update',
      `${actor.fullName} uploaded the shop's own picture for ${slot}${video ? ' with a video' : ''}`,
      { type: 'site-picture', id: slot, label: SITE_PICTURE_LABELS[slot] },
    );
    return view(record);
  }

  /** Back to the drawing; true when there was a picture to remove. */
  async remove(actor: Principal, slot: SitePictureSlot): Promise<boolean> {
    const removed = await this.repository.remove(slot);
    if (!removed) return false;
    await this.images.remove(removed.keys ?? []);
    await this.audit.record(
      actor,
      'site-picture.remove',
      `${actor.fullName} removed the shop's picture for ${slot}; the drawing shows again`,
      { type: 'site-picture', id: slot, label: SITE_PICTURE_LABELS[slot] },
    );
    return true;
  }
}

function view(record: SitePictureRecord): SitePictureDto {
  return {
    url: record.url,
    ...(record.width ? { width: record.width } : {}),
    ...(record.height ? { height: record.height } : {}),
    ...(record.video ? { video: record.video } : {}),
  };
}
