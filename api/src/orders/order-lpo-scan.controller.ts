import { BadRequestException, Controller, Get, Param, Put, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LPO_SCAN_MESSAGES as LM, SCAN_FIELD } from '@spc/shared-contracts';
import { Answer } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { readMultipartForm } from '../common/multipart';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import { RateLimit } from '../common/rate-limit';
import { LpoScanData, LpoScanResponseDto, LpoScanUploadDto } from './dto/order-lpo-scan.dto';
import { OrderLpoScans } from './order-lpo-scans';
import { sendScan } from '../scans/send-scan';

/** The scanned LPO of an order made from a quotation: attached by its approver or the shop, read by its people. */
@ApiTags('orders')
@Controller('orders')
@ApiNotFoundResponse({ type: ErrorResponseDto })
export class OrderLpoScanController {
  constructor(private readonly scans: OrderLpoScans) {}

  @Put(':id/lpo-scan')
  @Auth()
  @RateLimit('uploads')
  @ApiOperation({
    summary:
      "Attach (or replace) the scanned LPO of an order from a quotation: an approver of its organisation, or staff and admin (on the buyer's word). The same file again changes nothing",
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: LpoScanUploadDto })
  @Answer(LM.attached, LpoScanResponseDto)
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'A buyer, not an approver' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Not an order from a quotation' })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto })
  @ApiUnsupportedMediaTypeResponse({ type: ErrorResponseDto, description: 'Not a PDF or a photo' })
  @ApiUnprocessableEntityResponse({
    type: ErrorResponseDto,
    description: 'A photo that cannot be read, or has too many pixels',
  })
  async attach(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Req() request: FastifyRequest,
  ): Promise<LpoScanData> {
    const { file } = await readMultipartForm(request, LM.tooLarge);
    if (!file || file.fieldname !== SCAN_FIELD) throw new BadRequestException(LM.chooseFile);
    return { lpoScan: await this.scans.attach(actor, id, file.buffer) };
  }

  @Get(':id/lpo-scan')
  @Auth()
  @ApiOperation({
    summary:
      "The scanned LPO of an order from a quotation, as kept (a PDF, or a JPEG): the organisation's people, staff and admin",
  })
  @ApiResponse({
    status: 200,
    description: 'The file, inline, never cached, in a sandbox',
    content: {
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'image/jpeg': { schema: { type: 'string', format: 'binary' } },
    },
  })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Not an order from a quotation' })
  async read(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await sendScan(reply, await this.scans.read(actor, id));
  }
}
