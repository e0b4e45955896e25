import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { SitePicture, SitePictureSchema } from './schemas/site-picture.schema';
import { SitePicturesController } from './site-pictures.controller';
import { SitePicturesRepository } from './site-pictures.repository';
import { SitePicturesService } from './site-pictures.service';
import { holdsNoPersonalData } from '../common/personal-data';

/** The shop's own photos that replace the storefront's drawings (hero, collections, About). */
@Module({
  imports: [MongooseModule.forFeature([{ name: SitePicture.name, schema: SitePictureSchema }])],
  controllers: [SitePicturesController],
  providers: [SitePicturesRepository, SitePicturesService, holdsNoPersonalData('site_pictures')],
})
export class SiteModule {}
