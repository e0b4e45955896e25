import { ApiProperty } from '@nestjs/swagger';
import {
  ETIMS_DOCUMENT_KINDS,
  ETIMS_VIEW_STATES,
  TAX_TYPES,
  type EtimsDocumentKind,
  type EtimsViewState,
  type TaxType,
} from '@spc/shared-contracts';
import type { EtimsDocumentView, EtimsTaxView } from '../etims-views';

export class EtimsTaxDto implements EtimsTaxView {
  @ApiProperty({ enum: TAX_TYPES, example: 'B' }) taxType!: TaxType;
  @ApiProperty({ example: 'Standard rate 16 %' }) label!: string;
  @ApiProperty({ example: 16, description: 'Percent' }) rate!: number;
  @ApiProperty({ example: 1160, description: 'KES of lines of this type, tax included' })
  amount!: number;
  @ApiProperty({ example: 1000, description: 'KES: amount less tax' }) taxable!: number;
  @ApiProperty({ example: 160, description: 'KES, to the cent' }) tax!: number;
}

export class EtimsTotalDto {
  @ApiProperty({ description: 'KES, tax included' }) amount!: number;
  @ApiProperty({ description: 'KES, tax excluded' }) taxable!: number;
  @ApiProperty({ description: 'KES of tax' }) tax!: number;
}

/** The buyer a document names (their KRA PIN and name as KRA was sent them). */
export class EtimsDocumentBuyerDto {
  @ApiProperty({ example: 'A123456789Z', description: "The buyer's KRA PIN" }) pin!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Otieno Were' }) name!: string | null;
}

/** One of the order's documents as KRA eTIMS signed it, or pending. */
export class EtimsDocumentDto implements EtimsDocumentView {
  @ApiProperty({
    enum: ETIMS_DOCUMENT_KINDS,
    description: "The order's sale, a booking's deposit or balance, an invoice, a credit note",
  })
  kind!: EtimsDocumentKind;
  @ApiProperty({ example: 'SPD7K3MX9QA', description: 'The shop number KRA was sent' })
  trdInvcNo!: string;
  @ApiProperty({
    enum: ETIMS_VIEW_STATES,
    description: "signed by KRA, or pending (waiting, or refused and being fixed: 'eTIMS pending')",
  })
  state!: EtimsViewState;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'KRACU0100000001/7',
    description: 'The control unit invoice number, <sdcId>/<rcptNo>; null while pending',
  })
  cuInvoiceNo!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "KRA's receipt signature (rcptSign)" })
  signature!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "KRA's internal data (intrlData)" })
  internalData!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The machine registration code' })
  mrcNo!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) signedAt!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "KRA's page checking the document (what its QR code holds)",
  })
  qrUrl!: string | null;
  @ApiProperty({
    type: EtimsDocumentBuyerDto,
    nullable: true,
    description:
      "The buyer KRA was sent (whose tax invoice it is); null for a sale to no one named, or once the buyer's data was erased",
  })
  buyer!: EtimsDocumentBuyerDto | null;
  @ApiProperty({ type: [EtimsTaxDto], description: 'Per tax type the lines have, A to E' })
  taxes!: EtimsTaxDto[];
  @ApiProperty({ type: EtimsTotalDto }) total!: EtimsTotalDto;
}
