import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer } from '../common/answer';
import { Public } from '../common/access.decorators';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { ShopContactsData, ShopContactsResponseDto } from './dto/contact.dto';

@ApiTags('contact')
@Controller('site/contacts')
export class ShopContactsController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: "The shop's phone, WhatsApp number and e-mail, as the storefront shows them",
  })
  @Answer('Shop contacts retrieved', ShopContactsResponseDto)
  get(): ShopContactsData {
    return { contacts: { ...this.config.shopContacts } };
  }
}
