import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { FilterQuery, Model } from 'mongoose';
import type { AuditLogDto } from './dto/audit-log.dto';
import { AuditLog } from './schemas/audit-log.schema';

type LeanAudit = AuditLog & { _id: { toString(): string } };

function toView(doc: LeanAudit): AuditLogDto {
  return {
    _id: doc._id.toString(),
    action: doc.action,
    message: doc.message,
    performedBy: {
      id: doc.performedBy.id,
      fullName: doc.performedBy.fullName,
      role: doc.performedBy.role,
    },
    user: doc.performedBy.id,
    ...(doc.target
      ? { target: { type: doc.target.type, id: doc.target.id, label: doc.target.label } }
      : {}),
    timestamp: new Date(doc.timestamp).toISOString(),
  };
}

@Injectable()
export class AuditRepository {
  constructor(@InjectModel(AuditLog.name) private readonly logs: Model<AuditLog>) {}

  async insert(entry: Omit<AuditLog, 'timestamp'>): Promise<void> {
    await this.logs.create({ ...entry, timestamp: new Date() });
  }

  async list(
    filter: { action?: string },
    skip: number,
    limit: number,
  ): Promise<{ items: AuditLogDto[]; total: number }> {
    const query: FilterQuery<AuditLog> = filter.action ? { action: filter.action } : {};
    const [docs, total] = await Promise.all([
      this.logs
        .find(query)
        .sort({ timestamp: -1, _id: -1 })
        .skip(skip)
        .limit(limit)
        .lean<LeanAudit[]>(),
      this.logs.countDocuments(query),
    ]);
    return { items: docs.map(toView), total };
  }

  /** Every entry about one target (e.g. one order), oldest first, at most `limit`. */
  async forTarget(type: string, id: string, limit: number): Promise<AuditLogDto[]> {
    const docs = await this.logs
      .find({ 'target.id': id, 'target.type': type })
      .sort({ timestamp: 1, _id: 1 })
      .limit(limit)
      .lean<LeanAudit[]>();
    return docs.map(toView);
  }
}
