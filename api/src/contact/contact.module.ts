import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ContactController } from './contact.controller';
import { ContactPersonalData } from './contact-personal-data';
import { ContactRepository } from './contact.repository';
import { ContactService } from './contact.service';
import { ContactMessage, ContactMessageSchema } from './schemas/contact-message.schema';
import { ShopContactsController } from './shop-contacts.controller';

/** The contact page's form reaching the shop, and the shop's contacts the storefront shows. */
@Module({
  imports: [
    MongooseModule.forFeature([{ name: ContactMessage.name, schema: ContactMessageSchema }]),
  ],
  controllers: [ContactController, ShopContactsController],
  providers: [ContactService, ContactRepository, ContactPersonalData],
})
export class ContactModule {}
