import { Global, Module } from '@nestjs/common';
import { ImageService } from './image.service';
import { FileStorage, LocalDiskStorage } from './storage.service';

@Global()
@Module({
  providers: [
    LocalDiskStorage,
    { provide: FileStorage, useExisting: LocalDiskStorage },
    ImageService,
  ],
  exports: [FileStorage, ImageService, LocalDiskStorage],
})
export class StorageModule {}
