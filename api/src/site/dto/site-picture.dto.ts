import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { SITE_PICTURE_SLOTS, type SitePictureSlot } from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';

/** One uploaded picture as the storefront uses it. */
export class SitePictureDto {
  @ApiProperty({ example: '/api/uploads/site/hero-1/3f2a9c0d1e2b4a5c-1200.webp' })
  url!: string;
  @ApiPropertyOptional({ example: 1200, description: 'Width in pixels of the picture at `url`' })
  width?: number;
  @ApiPropertyOptional({ example: 800, description: 'Height in pixels of the picture at `url`' })
  height?: number;
  @ApiPropertyOptional({
    example: 'https://cdn.example.co.ke/nursery.mp4',
    description: 'Hero slides only: a looping MP4 shown over the picture, which is its poster',
  })
  video?: string;
}

/** Every place the shop has its own photo for; a place absent here shows the drawing. */
export class SitePicturesData {
  @ApiProperty({
    type: 'object',
    description: `Keyed by place: ${SITE_PICTURE_SLOTS.join(', ')}`,
    additionalProperties: { $ref: getSchemaPath(SitePictureDto) },
    example: {
      'hero-1': {
        url: '/api/uploads/site/hero-1/3f2a9c0d1e2b4a5c-1200.webp',
        width: 1200,
        height: 800,
      },
    },
  })
  pictures!: Partial<Record<SitePictureSlot, SitePictureDto>>;
}

export class SitePicturesResponseDto extends Envelope(SitePicturesData) {}

export class SitePictureUploadDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'JPEG, PNG or WebP, at most 5 MB' })
  picture!: unknown;
  @ApiPropertyOptional({
    description:
      'Hero slides only: an MP4 address (https://… or /api/uploads/…) played over the picture; empty for none',
  })
  video?: string;
}
