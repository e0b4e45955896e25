import { ApiProperty } from '@nestjs/swagger';
import { SCAN_CONTENT_TYPES, type ScanAbout, type ScanContentType } from '@spc/shared-contracts';

/** That a scanned paper is attached, and what it is; never its bytes or who uploaded it. */
export class ScanAboutDto implements ScanAbout {
  @ApiProperty({
    enum: SCAN_CONTENT_TYPES,
    description: 'A PDF as sent, or a photo re-encoded as JPEG (upright, without its metadata)',
  })
  contentType!: ScanContentType;
  @ApiProperty({ example: 284_113, description: 'Bytes, as kept' })
  size!: number;
  @ApiProperty({ format: 'date-time' })
  uploadedAt!: string;
}
