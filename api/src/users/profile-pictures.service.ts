import { Injectable, NotFoundException } from '@nestjs/common';
import type { Principal } from '../common/principal';
import { ImageService } from '../storage/image.service';
import type { UserView } from './user.types';
import { UsersRepository } from './users.repository';

const PICTURE_WIDTHS = [96, 256, 512];

/** Profile pictures: storing a new one, removing it, and its files when an account goes. */
@Injectable()
export class ProfilePicturesService {
  constructor(
    private readonly users: UsersRepository,
    private readonly images: ImageService,
  ) {}

  async setProfilePicture(actor: Principal, bytes: Buffer): Promise<UserView> {
    const oldKeys = await this.users.pictureKeys(actor.id);
    const stored = await this.images.store(bytes, `profiles/${actor.id}`, PICTURE_WIDTHS, 256);
    const updated = await this.users.update(actor.id, {
      profilePicture: stored.url,
      profilePictureKeys: stored.keys,
    });
    if (!updated) {
      await this.images.remove(stored.keys);
      throw new NotFoundException('No account with this id');
    }
    await this.images.remove(oldKeys.filter((key) => !stored.keys.includes(key)));
    return updated;
  }

  async removeProfilePicture(actor: Principal): Promise<UserView> {
    const keys = await this.users.pictureKeys(actor.id);
    const updated = await this.users.update(actor.id, {
      profilePicture: '',
      profilePictureKeys: [],
    });
    if (!updated) throw new NotFoundException('No account with this id');
    await this.images.remove(keys);
    return updated;
  }

  /** The stored files of an account's picture, read before the account is deleted. */
  keysOf(id: string): Promise<string[]> {
    return this.users.pictureKeys(id);
  }

  /** Removes the files once the account is gone. */
  discard(keys: string[]): Promise<void> {
    return this.images.remove(keys);
  }
}
