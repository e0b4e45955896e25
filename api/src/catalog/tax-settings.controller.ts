import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import type { Principal } from '../common/principal';
import { TaxSettingsData, TaxSettingsResponseDto, UpdateTaxSettingsDto } from './dto/tax.dto';
import { TaxSettingsService } from './tax-settings.service';

/** The shop's default tax type: staff read it (the product form shows it), the admin sets it. */
@ApiTags('tax')
@Controller('tax/settings')
export class TaxSettingsController {
  constructor(private readonly settings: TaxSettingsService) {}

  @Get()
  @Auth('admin', 'staff')
  @ApiOperation({ summary: "The shop's default tax type and KRA's tax types" })
  @Answer('Tax settings retrieved', TaxSettingsResponseDto)
  async get(): Promise<TaxSettingsData> {
    return { settings: await this.settings.get() };
  }

  @Put()
  @Auth('admin')
  @ApiOperation({
    summary:
      "Set the shop's default tax type (null: none, and then every product needs its own); the audit trail records the change",
  })
  @Answer('Tax settings saved', TaxSettingsResponseDto)
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  async put(
    @CurrentUser() actor: Principal,
    @Body() dto: UpdateTaxSettingsDto,
  ): Promise<TaxSettingsData> {
    return { settings: await this.settings.update(actor, dto.defaultTaxType) };
  }
}
