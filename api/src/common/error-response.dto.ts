import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODE_LIST, ERROR_CODES, type ErrorCode } from '@spc/shared-contracts';

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

  @ApiProperty({
    enum: ERROR_CODE_LIST,
    enumName: 'ErrorCode',
    example: 'VALIDATION_FAILED',
    description:
      'Stable, machine-readable reason; branch on it, never on `message`. ' +
      ERROR_CODE_LIST.map((code) => `\`${code}\`: ${ERROR_CODES[code]}`).join('; ') +
      '.',
  })
  code!: ErrorCode;

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
