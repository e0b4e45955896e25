import { Module } from '@nestjs/common';
import { EtimsDocumentsController, EtimsReportsController } from './etims-office.controller';
import { EtimsOfficeRepository } from './etims-office.repository';
import { EtimsOffice } from './etims-office.service';
import { EtimsModule } from './etims.module';

/**
 * The back office's eTIMS screens (issue 45): the queue of documents KRA has not signed (resend,
 * a signature copied by hand) and the owner's daily summary with its CSV. It asks the signing queue
 * (EtimsModule) to resend and never sends itself.
 */
@Module({
  imports: [EtimsModule],
  controllers: [EtimsDocumentsController, EtimsReportsController],
  providers: [EtimsOffice, EtimsOfficeRepository],
})
export class EtimsOfficeModule {}
