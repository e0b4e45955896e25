import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  Injectable,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
  type PipeTransform,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiNotFoundResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SCAN_FIELD, SIGNED_NOTE_MESSAGES as SM, TRANCHE_LIMITS } from '@spc/shared-contracts';
import { Answer } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { readMultipartForm } from '../common/multipart';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import { RateLimit } from '../common/rate-limit';
import {
  ChangeTrancheDto,
  PlanTrancheDto,
  RecordDeliveryDto,
  SignedNoteUploadDto,
  TrancheListQueryDto,
} from './dto/tranche.dto';
import {
  OrderTranchesResponseDto,
  TrancheListResponseDto,
  TrancheQueueResponseDto,
  TrancheResponseDto,
} from './dto/tranche-view.dto';
import { TrancheDocuments } from './tranche-documents';
import { TrancheSignedNotes } from './tranche-signed-notes';
import { TrancheSteps } from './tranche-steps.service';
import { TranchesService } from './tranches.service';
import { sendScan } from '../scans/send-scan';

/**
 * A tranche's number in a path: 1, 2, 3…, digits only ("01", "1.0", "T1" are a 400 in words).
 * The handler's parameter is typed as text, so the path reaches this pipe as it was sent (the
 * global validation would turn a parameter typed as a number into one, "1.0" into 1, first).
 */
@Injectable()
class TrancheNumberPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (typeof value !== 'string' || !/^[1-9][0-9]{0,2}$/.test(value))
      throw new BadRequestException({
        message: `"${String(value).slice(0, 20)}" is not a tranche: a tranche is named by its number, from 1 to ${TRANCHE_LIMITS.perOrder}`,
        code: 'VALIDATION_FAILED',
      });
    return value;
  }
}

const Id = () => Param('id', ParseObjectIdPipe);
const Number_ = () => Param('number', new TrancheNumberPipe());
const NUMBER_PARAM = {
  name: 'number',
  description: 'The tranche: T1 is 1',
  schema: { type: 'integer' as const, minimum: 1, maximum: TRANCHE_LIMITS.perOrder },
};
const NOT_FOUND =
  "No such order, not one the caller may see (another organisation's), or no such tranche";
const ILLEGAL = 'ILLEGAL_TRANSITION: not from its state, or its order may take no tranche now';

/**
 * An order's tranches (issue 43): the shop plans, changes and cancels them (staff and admins),
 * dispatches them and records their signed notes (staff), attaches the photo of a signed note
 * (staff and admins); the shop and the order's organisation's people read them, print their
 * delivery notes and read the signed notes' photos (any other caller: 404).
 */
@ApiTags('tranches')
@Controller('orders')
@ApiBadRequestResponse({ type: ErrorResponseDto })
@ApiNotFoundResponse({ type: ErrorResponseDto, description: NOT_FOUND })
export class OrderTranchesController {
  constructor(
    private readonly tranches: TranchesService,
    private readonly steps: TrancheSteps,
    private readonly documents: TrancheDocuments,
    private readonly signedNotes: TrancheSignedNotes,
  ) {}

  @Get(':id/tranches')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({
    summary:
      "An order's tranches and where each of its lines stands (planned, on its way, delivered, to plan); an order not from a quotation has none",
  })
  @Answer('Tranches retrieved', OrderTranchesResponseDto)
  ofOrder(@CurrentUser() actor: Principal, @Id() id: string) {
    return this.tranches.ofOrder(actor, id);
  }

  @Post(':id/tranches')
  @Auth('staff', 'admin')
  @ApiOperation({
    summary:
      'Plan a tranche of an order from a quotation: a site (name, county, sub-county, contact), a day, and units of its lines (at most what each line holds beside its other tranches; not dated before a growing batch is ready)',
  })
  @Answer('Tranche planned', TrancheResponseDto, { status: 201 })
  @ApiConflictResponse({ type: ErrorResponseDto, description: `${ILLEGAL}; BATCH_FAILED` })
  async plan(@CurrentUser() actor: Principal, @Id() id: string, @Body() dto: PlanTrancheDto) {
    return { tranche: await this.tranches.plan(actor, id, dto) };
  }

  @Get(':id/tranches/:number')
  @Auth('customer', 'staff', 'admin')
  @ApiParam(NUMBER_PARAM)
  @ApiOperation({ summary: 'One tranche of an order' })
  @Answer('Tranche retrieved', TrancheResponseDto)
  async one(@CurrentUser() actor: Principal, @Id() id: string, @Number_() number: string) {
    return { tranche: await this.tranches.one(actor, id, Number(number)) };
  }

  @Patch(':id/tranches/:number')
  @Auth('staff', 'admin')
  @ApiParam(NUMBER_PARAM)
  @ApiOperation({ summary: "Change a planned tranche's site, day or lines (the plan's rules)" })
  @Answer('Tranche changed', TrancheResponseDto)
  @ApiConflictResponse({ type: ErrorResponseDto, description: ILLEGAL })
  async change(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Number_() number: string,
    @Body() dto: ChangeTrancheDto,
  ) {
    return { tranche: await this.tranches.changeOne(actor, id, Number(number), dto) };
  }

  @Post(':id/tranches/:number/cancel')
  @HttpCode(200)
  @Auth('staff', 'admin')
  @ApiParam(NUMBER_PARAM)
  @ApiOperation({ summary: 'Cancel a planned tranche: its units are free to plan again' })
  @Answer('Tranche cancelled', TrancheResponseDto)
  @ApiConflictResponse({ type: ErrorResponseDto, description: ILLEGAL })
  async cancel(@CurrentUser() actor: Principal, @Id() id: string, @Number_() number: string) {
    return { tranche: await this.tranches.cancel(actor, id, Number(number)) };
  }

  @Post(':id/tranches/:number/dispatch')
  @HttpCode(200)
  @Auth('staff')
  @ApiParam(NUMBER_PARAM)
  @ApiOperation({
    summary:
      "Dispatch a planned tranche: only its lines' units leave (a batch's once it is ready); the order is in transit from its first tranche; audited, and its site contact is texted",
  })
  @Answer('Tranche dispatched', TrancheResponseDto)
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: `${ILLEGAL} (dispatched already); a batch not ready (its expected day) or failed`,
  })
  async dispatch(@CurrentUser() actor: Principal, @Id() id: string, @Number_() number: string) {
    return { tranche: await this.steps.dispatch(actor, id, Number(number)) };
  }

  @Post(':id/tranches/:number/delivery')
  @HttpCode(200)
  @Auth('staff')
  @ApiParam(NUMBER_PARAM)
  @ApiOperation({
    summary:
      'Record the signed delivery note of a dispatched tranche: who signed, when, what arrived of each line (a short line with its reason: its rest came back and is to deliver in a later tranche)',
  })
  @Answer('Signed note recorded', TrancheResponseDto)
  @ApiConflictResponse({ type: ErrorResponseDto, description: ILLEGAL })
  async delivery(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Number_() number: string,
    @Body() dto: RecordDeliveryDto,
  ) {
    return { tranche: await this.steps.recordDelivery(actor, id, Number(number), dto) };
  }

  @Get(':id/tranches/:number/delivery-note.pdf')
  @Auth('customer', 'staff', 'admin')
  @ApiParam(NUMBER_PARAM)
  @ApiOperation({
    summary:
      "A tranche's delivery note as a PDF (A4): the site, its contact, the day, the LPO number, the lines and the Received by / Signature / Date boxes",
  })
  @ApiResponse({
    status: 200,
    description: 'The PDF (A4)',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The tranche was cancelled' })
  async deliveryNote(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Number_() number: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { filename, pdf } = await this.documents.deliveryNote(actor, id, Number(number));
    await reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `inline; filename="${filename}"`)
      .header('Cache-Control', 'private, no-store')
      .send(pdf);
  }

  @Put(':id/tranches/:number/signed-note')
  @Auth('staff', 'admin')
  @RateLimit('uploads')
  @ApiParam(NUMBER_PARAM)
  @ApiOperation({
    summary:
      "Attach (or replace) the photo or scan of a tranche's signed delivery note, once the load left (dispatched or delivered). The same file again changes nothing",
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: SignedNoteUploadDto })
  @Answer(SM.attached, TrancheResponseDto)
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'ILLEGAL_TRANSITION: the tranche is planned or cancelled',
  })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto })
  @ApiUnsupportedMediaTypeResponse({ type: ErrorResponseDto, description: 'Not a PDF or a photo' })
  @ApiUnprocessableEntityResponse({
    type: ErrorResponseDto,
    description: 'A photo that cannot be read, or has too many pixels',
  })
  async attachSignedNote(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Number_() number: string,
    @Req() request: FastifyRequest,
  ) {
    const { file } = await readMultipartForm(request, SM.tooLarge);
    if (!file || file.fieldname !== SCAN_FIELD) throw new BadRequestException(SM.chooseFile);
    return { tranche: await this.signedNotes.attach(actor, id, Number(number), file.buffer) };
  }

  @Get(':id/tranches/:number/signed-note')
  @Auth('customer', 'staff', 'admin')
  @ApiParam(NUMBER_PARAM)
  @ApiOperation({
    summary:
      "The photo or scan of a tranche's signed delivery note, as kept (a PDF, or a JPEG): the order's organisation's people, staff and admin",
  })
  @ApiResponse({
    status: 200,
    description: 'The file, inline, never cached, in a sandbox',
    content: {
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'image/jpeg': { schema: { type: 'string', format: 'binary' } },
    },
  })
  async readSignedNote(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Number_() number: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await sendScan(reply, await this.signedNotes.read(actor, id, Number(number)));
  }
}

/** The dispatch desk's tranches (a unit of work like an order), and an organisation's. */
@ApiTags('tranches')
@Controller('tranches')
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class TranchesDeskController {
  constructor(private readonly tranches: TranchesService) {}

  @Get()
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({
    summary:
      "Tranches by day (then order and number), by state, desk bucket and days: the shop every order's, a customer their organisation's",
  })
  @Answer('Tranches retrieved', TrancheListResponseDto)
  list(@CurrentUser() actor: Principal, @Query() query: TrancheListQueryDto) {
    return this.tranches.list(actor, query);
  }

  @Get('queue')
  @Auth('staff', 'admin')
  @ApiOperation({
    summary:
      "The desk's tranche buckets counted: to dispatch (planned, due today or earlier), planned later, awaiting the signed note",
  })
  @Answer('Tranches counted', TrancheQueueResponseDto)
  async queue() {
    return { counts: await this.tranches.queueCounts() };
  }
}
