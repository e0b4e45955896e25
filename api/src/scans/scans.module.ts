import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ScannedDocumentsRepository } from './scanned-documents.repository';
import { ScannedDocuments } from './scanned-documents.service';
import { ScansPersonalData } from './scans-personal-data';
import { ScannedDocument, ScannedDocumentSchema } from './schemas/scanned-document.schema';

/** Scanned paper documents kept with an order: its LPO (issue 42), its tranches' signed delivery notes (43). */
@Module({
  imports: [
    MongooseModule.forFeature([{ name: ScannedDocument.name, schema: ScannedDocumentSchema }]),
  ],
  providers: [ScannedDocumentsRepository, ScannedDocuments, ScansPersonalData],
  exports: [ScannedDocuments],
})
export class ScansModule {}
