import { Module } from '@nestjs/common';
import { EtimsDevicesStore } from './etims-devices.store';
import { EtimsDocumentsRepository } from './etims-documents.repository';
import { EtimsItemsRepository } from './etims-items.repository';
import { EtimsItems } from './etims-items.service';
import { EtimsPersonalData } from './etims-personal-data';
import { EtimsQueue } from './etims-queue.service';

/**
 * KRA eTIMS (issue 45, docs/etims.md): the signing queue (`etims_documents`, one per document,
 * numbered gap-free per branch) and its sender sweep against OSCU. With ETIMS_ENV=off (the
 * default) it writes and sends nothing.
 */
@Module({
  providers: [
    EtimsQueue,
    EtimsItems,
    EtimsItemsRepository,
    EtimsDocumentsRepository,
    EtimsDevicesStore,
    EtimsPersonalData,
  ],
  exports: [EtimsQueue, EtimsItems],
})
export class EtimsModule {}
