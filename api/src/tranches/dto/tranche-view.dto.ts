import { ApiProperty } from '@nestjs/swagger';
import { TRANCHE_STATES, type TrancheState } from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { ScanAboutDto } from '../../scans/dto/scan-about.dto';

export class TrancheContactViewDto {
  @ApiProperty({ example: 'Peter Mwangi' }) name!: string;
  @ApiProperty({ example: '+254712345678', description: 'In its +254 form' }) phone!: string;
}

export class TrancheSiteViewDto {
  @ApiProperty({ example: 'Gatundu North planting site' }) name!: string;
  @ApiProperty({ example: 'Kiambu' }) county!: string;
  @ApiProperty({ example: 'Gatundu North', description: "'' when none" }) subCounty!: string;
  @ApiProperty({ type: TrancheContactViewDto }) contact!: TrancheContactViewDto;
}

/** A line of the order, as the tranches name it. */
export class TrancheOrderLineDto {
  @ApiProperty() productId!: string;
  @ApiProperty({ example: 'Grevillea robusta' }) productName!: string;
  @ApiProperty() unitId!: string;
  @ApiProperty({ example: 'Tray of 50' }) unitName!: string;
  @ApiProperty({ type: 'integer', description: 'Seedlings one unit holds' }) seedlings!: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The batch holding it; null: ready stock',
  })
  batchId!: string | null;
}

export class TrancheLineViewDto extends TrancheOrderLineDto {
  @ApiProperty({ type: 'integer', description: 'Units planned' }) quantity!: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Units that left (null until dispatched)',
  })
  dispatched!: number | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Units that arrived, as the signed note says (null until recorded)',
  })
  delivered!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why fewer arrived than left' })
  shortReason!: string | null;
}

/** A tranche of an order. */
export class TrancheDto {
  @ApiProperty() orderId!: string;
  @ApiProperty({ example: 'SPD7K3MX9QA' }) purchaseNumber!: string;
  @ApiProperty({ example: 'LPO/2026/114' }) lpoNumber!: string;
  @ApiProperty({ type: 'integer', example: 2 }) number!: number;
  @ApiProperty({ example: 'T2' }) label!: string;
  @ApiProperty({ enum: TRANCHE_STATES, enumName: 'TrancheState' }) state!: TrancheState;
  @ApiProperty({ format: 'date', example: '2026-10-15' }) date!: string;
  @ApiProperty({ type: TrancheSiteViewDto }) site!: TrancheSiteViewDto;
  @ApiProperty({ type: [TrancheLineViewDto] }) lines!: TrancheLineViewDto[];
  @ApiProperty({ type: 'integer', description: 'Seedlings planned (sent, once dispatched)' })
  seedlings!: number;
  @ApiProperty({ format: 'date-time' }) plannedAt!: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) changedAt!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) dispatchedAt!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Who signed the delivery note' })
  signedBy!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) signedAt!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'When the clerk recorded the signed note',
  })
  recordedAt!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) cancelledAt!: string | null;
  @ApiProperty({
    type: ScanAboutDto,
    nullable: true,
    description:
      'The photo or scan of the signed delivery note, when one is attached (its file: GET …/signed-note)',
  })
  signedNote!: ScanAboutDto | null;
}

/** A tranche on the dispatch desk's list, with its organisation's name. */
export class TrancheListItemDto extends TrancheDto {
  @ApiProperty({ example: 'Kiambu County Government' }) organisationName!: string;
}

/** Where a line of the order stands across its tranches, in units. */
export class TrancheLineStandingDto extends TrancheOrderLineDto {
  @ApiProperty({ type: 'integer', description: 'Units the order holds' }) quantity!: number;
  @ApiProperty({ type: 'integer', description: 'In planned tranches' }) planned!: number;
  @ApiProperty({ type: 'integer', description: 'Dispatched, not yet signed for' })
  onTheWay!: number;
  @ApiProperty({ type: 'integer', description: 'Signed for' }) delivered!: number;
  @ApiProperty({
    type: 'integer',
    description: 'In no live tranche yet (short parts that came back too): free to plan',
  })
  toPlan!: number;
}

export class OrderTranchesData {
  @ApiProperty() orderId!: string;
  @ApiProperty() purchaseNumber!: string;
  @ApiProperty({ type: [TrancheLineStandingDto] }) lines!: TrancheLineStandingDto[];
  @ApiProperty({ type: [TrancheDto], description: 'By number' }) tranches!: TrancheDto[];
}
export class OrderTranchesResponseDto extends Envelope(OrderTranchesData) {}

export class TrancheData {
  @ApiProperty({ type: TrancheDto }) tranche!: TrancheDto;
}
export class TrancheResponseDto extends Envelope(TrancheData) {}

export class TrancheListData {
  @ApiProperty({ type: [TrancheListItemDto], description: 'By day, then order and number' })
  tranches!: TrancheListItemDto[];
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: 'integer' }) page!: number;
  @ApiProperty({ type: 'integer' }) totalPages!: number;
}
export class TrancheListResponseDto extends Envelope(TrancheListData) {}

export class TrancheQueueCountsDto {
  @ApiProperty({ type: 'integer', description: 'Planned, dated today or earlier' })
  toDispatch!: number;
  @ApiProperty({ type: 'integer', description: 'Planned, dated after today' }) upcoming!: number;
  @ApiProperty({ type: 'integer', description: 'Dispatched, awaiting the signed note' })
  awaitingSignature!: number;
}
export class TrancheQueueData {
  @ApiProperty({ type: TrancheQueueCountsDto }) counts!: TrancheQueueCountsDto;
}
export class TrancheQueueResponseDto extends Envelope(TrancheQueueData) {}
