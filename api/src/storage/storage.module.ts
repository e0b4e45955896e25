import { Global, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { ImageService } from './image.service';
import { S3BucketStorage } from './s3-bucket.storage';
import { FileStorage, LocalDiskStorage } from './storage.service';

@Global()
@Module({
  providers: [
    LocalDiskStorage,
    {
      provide: FileStorage,
      inject: [APP_CONFIG, LocalDiskStorage],
      useFactory: (config: AppConfig, disk: LocalDiskStorage): FileStorage =>
        config.s3 ? new S3BucketStorage(config.s3) : disk,
    },
    ImageService,
  ],
  exports: [FileStorage, ImageService, LocalDiskStorage],
})
export class StorageModule {}
