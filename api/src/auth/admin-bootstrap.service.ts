import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { DEV_ADMIN } from '../config/production-rules';
import { APP_CONFIG } from '../config/config.module';
import { maskEmail } from '../mail/mail-log';
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
    const { email, password, usingDevDefaults } = this.config.admin;
    // The logs keep no e-mail address (a real one shows as ***@domain) and no real password: only
    // the development defaults, which name nobody, are shown whole to sign in with.
    if (usingDevDefaults) {
      const who = email === DEV_ADMIN.email ? email : maskEmail(email);
      const secret = password === DEV_ADMIN.password ? ` / ${password}` : '';
      this.logger.warn(
        `Created the development admin ${who}${secret} — set ADMIN_EMAIL and ADMIN_PASSWORD for anything real`,
      );
    } else {
      this.logger.log(`Created the admin account ${maskEmail(email)}`);
    }
  }
}
