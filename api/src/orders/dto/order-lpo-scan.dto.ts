import { ApiProperty } from '@nestjs/swagger';
import { Envelope } from '../../common/answer';
import { ScanAboutDto } from '../../scans/dto/scan-about.dto';

export class LpoScanUploadDto {
  @ApiProperty({
    type: 'string',
    format: 'binary',
    description:
      'A PDF (kept as sent) or a photo: JPEG, PNG or WebP (kept as an upright JPEG without its metadata); at most 5 MB. Told by its content, not its name or type',
  })
  file!: unknown;
}

export class LpoScanData {
  @ApiProperty({ type: ScanAboutDto })
  lpoScan!: ScanAboutDto;
}

export class LpoScanResponseDto extends Envelope(LpoScanData) {}
