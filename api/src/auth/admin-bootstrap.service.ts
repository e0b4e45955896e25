import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { UsersService } from '../users/users.service';

/** First start: creates the admin from ADMIN_EMAIL / ADMIN_PASSWORD when no admin exists. */
@Injectable()
export class AdminBootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('AdminBootstrap');

  constructor(
    private readonly users: UsersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const created = await this.users.ensureAdmin(this.config.admin);
    if (!created) return;
    if (this.config.admin.usingDevDefaults) {
      this.logger.warn(
        `Created the development admin ${this.config.admin.email} / ${this.config.admin.password} — set ADMIN_EMAIL and ADMIN_PASSWORD for anything real`,
      );
    } else {
      this.logger.log(`Created the admin account ${this.config.admin.email}`);
    }
  }
}
