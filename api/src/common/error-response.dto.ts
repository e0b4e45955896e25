import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ example: 'email' })
  field!: string;

  @ApiProperty({ type: [String], example: ['Invalid email format'] })
  messages!: string[];
}

/** The envelope of every error answer. */
export class ErrorResponseDto {
  @ApiProperty({ example: false })
  success!: boolean;

  @ApiProperty({ example: 'Invalid email format' })
  message!: string;

  @ApiProperty({ example: 400 })
  statusCode!: number;

  @ApiPropertyOptional({ type: [FieldErrorDto] })
  errors?: FieldErrorDto[];

  @ApiPropertyOptional({
    example: 12,
    description: 'How many more field errors there were than the (capped) list shows',
  })
  moreErrors?: number;

  @ApiPropertyOptional({ description: 'Reference to quote when reporting a server-side failure' })
  requestId?: string;
}
