import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isValidObjectId, type FilterQuery, type Model } from 'mongoose';
import type { ContactMessageViewDto } from './dto/contact.dto';
import { ContactMessage } from './schemas/contact-message.schema';

type Lean = ContactMessage & { _id: { toString(): string } };

function toView(doc: Lean): ContactMessageViewDto {
  return {
    _id: doc._id.toString(),
    name: doc.name,
    email: doc.email,
    subject: doc.subject,
    message: doc.message,
    read: doc.read === true,
    readAt: doc.readAt ? new Date(doc.readAt).toISOString() : null,
    readByName: doc.readByName ?? null,
    createdAt: new Date(doc.createdAt).toISOString(),
  };
}

/** The only place that touches the contact_messages collection. */
@Injectable()
export class ContactRepository {
  constructor(@InjectModel(ContactMessage.name) private readonly messages: Model<ContactMessage>) {}

  async findById(id: string): Promise<ContactMessageViewDto | null> {
    if (!isValidObjectId(id)) return null;
    const doc = await this.messages.findById(id).lean<Lean>();
    return doc ? toView(doc) : null;
  }

  /** The messages an account sent while signed in, oldest first (its export). */
  async ofAccount(accountId: string): Promise<ContactMessageViewDto[]> {
    const docs = await this.messages.find({ accountId }).sort({ createdAt: 1 }).lean<Lean[]>();
    return docs.map(toView);
  }

  /** Deletes the messages an account sent, and those sent with these addresses; how many. */
  async forget(accountId: string | null, emails: string[]): Promise<number> {
    const or: FilterQuery<ContactMessage>[] = [];
    if (accountId) or.push({ accountId });
    if (emails.length) or.push({ email: { $in: emails } });
    if (!or.length) return 0;
    const res = await this.messages.deleteMany({ $or: or });
    return res.deletedCount;
  }

  async create(
    data: Pick<
      ContactMessage,
      'name' | 'email' | 'subject' | 'message' | 'clientAddress' | 'accountId'
    >,
  ): Promise<ContactMessageViewDto> {
    const doc = await this.messages.create(data);
    return toView(doc.toObject() as Lean);
  }

  async page(
    read: boolean | undefined,
    skip: number,
    limit: number,
  ): Promise<{ items: ContactMessageViewDto[]; total: number; unread: number }> {
    const filter: FilterQuery<ContactMessage> = read === undefined ? {} : { read };
    const [docs, total, unread] = await Promise.all([
      this.messages
        .find(filter)
        .sort({ createdAt: -1, _id: -1 })
        .skip(skip)
        .limit(limit)
        .lean<Lean[]>(),
      this.messages.countDocuments(filter),
      this.messages.countDocuments({ read: false }),
    ]);
    return { items: docs.map(toView), total, unread };
  }

  async setRead(
    id: string,
    read: boolean,
    by: string,
    at: Date,
  ): Promise<ContactMessageViewDto | null> {
    const doc = await this.messages
      .findByIdAndUpdate(
        id,
        {
          $set: read
            ? { read, readAt: at, readByName: by }
            : { read, readAt: null, readByName: null },
        },
        { new: true },
      )
      .lean<Lean>();
    return doc ? toView(doc) : null;
  }
}
