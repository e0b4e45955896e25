import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
  UnauthorizedException,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { Types } from 'mongoose';
import { AuditService } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { canonicalEmail } from '../common/identifiers';
import type { QueuedMail } from '../mail/mail-outbox.repository';
import { MailQueue, type MailContent } from '../mail/mail-queue.service';
import { customerText } from '../mail/mail-text';
import type { UserView } from '../users/user.types';
import { DEACTIVATED_MESSAGE, UsersService } from '../users/users.service';
import { CredentialsService } from './credentials.service';
import type { ChangePasswordDto, LoginDto, RegisterDto, ResetPasswordDto } from './dto/auth.dto';
import {
  RESET_TOKEN_TTL_MS,
  SESSION_EXPIRED,
  TokensService,
  type TokenPair,
} from './tokens.service';

export const FORGOT_PASSWORD_MESSAGE =
  'If an account exists for this e-mail, we have sent it a link to reset the password. The link is valid for one hour.';
export const INVALID_RESET_CODE =
  'This reset link is not valid or has expired. Please ask for a new one.';

/**
 * Sign-up, sign-in, sessions and passwords. Nothing answers differently, or sooner, for an address
 * that has an account: sign-up and forgot-password answer the same either way, and the e-mail that
 * goes to a known address is queued and sent after the answer. A reset's link is made when its
 * e-mail is sent (the queue keeps only which account asked), so no copy of it is ever stored.
 */
@Injectable()
export class AuthService implements BeforeApplicationShutdown, OnModuleInit {
  private readonly logger = new Logger(AuthService.name);
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly users: UsersService,
    private readonly credentials: CredentialsService,
    private readonly tokens: TokensService,
    private readonly audit: AuditService,
    private readonly mail: MailQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.mail.register('password-reset', (m) => this.resetMail(m));
    this.mail.register('account-exists', (m) => this.accountExistsMail(m));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Creates a customer account. An address that already has one gets the same answer (a new
   * account's shape, with an id that belongs to nobody) after the same work (the password is hashed
   * either way), and its owner is told by e-mail instead: sign-up never says which addresses have
   * accounts.
   */
  async register(dto: RegisterDto): Promise<UserView> {
    try {
      return await this.users.createAccount({ ...dto, role: 'customer' });
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
      this.inBackground(this.mailAccountExists(dto.email));
      const now = new Date().toISOString();
      return {
        _id: new Types.ObjectId().toString(),
        fullName: dto.fullName,
        email: dto.email.toLowerCase(),
        phoneNumber: dto.phoneNumber,
        role: 'customer',
        isActive: true,
        county: '',
        streetAddress: '',
        profilePicture: '',
        smsNotifications: true,
        kraPin: null,
        createdAt: now,
        updatedAt: now,
      };
    }
  }

  /** Tells an account's owner that someone tried to sign up with their address. */
  private async mailAccountExists(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) return;
    await this.mail.send({
      key: `account-exists:${user._id}:${new Types.ObjectId().toString()}`,
      template: 'account-exists',
      to: user.email,
      for: { accountId: user._id },
    });
  }

  private async accountExistsMail(queued: QueuedMail): Promise<MailContent | { gone: string }> {
    const user = await this.openAccount(queued);
    if (!user) return { gone: 'the account is closed' };
    const site = this.resetSiteFor(user.role);
    return {
      subject: 'You already have a Seedling Propagation Centre account',
      text:
        'Hello,\n\nSomeone (we hope you) tried to create a new account with this e-mail address, which ' +
        'already has one. No new account was made and your password is unchanged.\n\n' +
        `To sign in: ${site}/authenticate/login\n` +
        `If you forgot your password: ${site}/authenticate/forgotPassword\n\n` +
        'If it was not you, there is nothing to do.\n\nSeedling Propagation Centre, Kiambu',
    };
  }

  /** Work that follows an answer; errors are logged, and shutdown waits for it. */
  private inBackground(work: Promise<unknown>): void {
    const p = work.catch((error: Error) =>
      this.logger.error(`Account e-mail failed: ${error.message}`),
    );
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  async login(dto: LoginDto): Promise<TokenPair & { user: UserView }> {
    const user = await this.credentials.verifyCredentials(dto.email, dto.password);
    if (!user)
      throw new UnauthorizedException({
        message: 'Invalid email or password',
        code: 'INVALID_CREDENTIALS',
      });
    if (!user.isActive)
      throw new ForbiddenException({ message: DEACTIVATED_MESSAGE, code: 'ACCOUNT_DEACTIVATED' });
    const pair = await this.tokens.issue(user);
    await this.audit.record(
      { id: user._id, role: user.role, fullName: user.fullName },
      'auth.login',
      `${user.fullName} signed in`,
      { type: user.role, id: user._id, label: user.email },
    );
    return { ...pair, user };
  }

  async refresh(refreshToken: string): Promise<TokenPair & { user: UserView }> {
    let current: UserView | undefined;
    const pair = await this.tokens.rotate(refreshToken, async (userId) => {
      const user = await this.users.findById(userId);
      if (!user)
        throw new UnauthorizedException({ message: SESSION_EXPIRED, code: 'SESSION_EXPIRED' });
      if (!user.isActive)
        throw new ForbiddenException({ message: DEACTIVATED_MESSAGE, code: 'ACCOUNT_DEACTIVATED' });
      current = user;
      return user;
    });
    return { ...pair, user: current! };
  }

  logout(actor: Principal, refreshToken: string): Promise<void> {
    return this.tokens.revoke(refreshToken, actor.id);
  }

  /**
   * Always the same answer, as soon, whether or not the e-mail has an account: the answer leaves
   * after the one look-up, and the link is made and mailed afterwards.
   */
  async forgotPassword(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (user && user.isActive) this.inBackground(this.sendResetLink(user));
  }

  /**
   * Queues the reset e-mail with the account's token version (no secret: a counter a password
   * change moves on); an earlier one still waiting for this account is not sent.
   */
  private async sendResetLink(user: UserView): Promise<void> {
    await this.mail.send({
      key: `reset:${user._id}:${new Types.ObjectId().toString()}`,
      template: 'password-reset',
      to: user.email,
      for: { accountId: user._id },
      params: { tokenVersion: await this.users.tokenVersion(user._id) },
      onlyLatest: true,
    });
  }

  /**
   * The reset e-mail, made as it is sent: a new link (any earlier one stops working), valid an
   * hour. Not sent for an account closed or deactivated since, whose address changed since (the
   * link would go to an address that is no longer the account's), whose password was changed or
   * reset since (a retry would bring a working link after it), or asked for over an hour ago.
   */
  private async resetMail(
    queued: QueuedMail,
  ): Promise<MailContent | { skip: string } | { gone: string }> {
    const user = await this.openAccount(queued);
    if (!user) return { gone: 'the account is closed' };
    if (!user.isActive) return { skip: 'the account is deactivated' };
    if (canonicalEmail(user.email) !== queued.to) return { skip: "the account's address changed" };
    if ((await this.users.tokenVersion(user._id)) !== queued.params.tokenVersion)
      return { skip: 'the password was changed since' };
    if (Date.now() - queued.createdAt.getTime() > RESET_TOKEN_TTL_MS)
      return { skip: 'asked for over an hour ago' };
    const code = await this.tokens.createResetCode(user._id);
    const link = `${this.resetSiteFor(user.role)}/authenticate/resetPassword/${code}`;
    return {
      subject: 'Reset your Seedling Propagation Centre password',
      text:
        `Hello ${customerText(user.fullName, 80)},\n\nSomeone (we hope you) asked to reset the password of your account.\n` +
        `Open this link within one hour to choose a new password:\n\n${link}\n\n` +
        'If you did not ask for this, ignore this e-mail: your password stays as it is.\n\nSeedling Propagation Centre, Kiambu',
      link,
    };
  }

  /**
   * The account a queued e-mail is for, unless it was closed (deleted): an e-mail queued while its
   * erasure ran is not sent, and its record goes.
   */
  private async openAccount(queued: QueuedMail): Promise<UserView | null> {
    if (!queued.accountId || (await this.users.isClosed(queued.accountId))) return null;
    return this.users.findById(queued.accountId);
  }

  /**
   * Where a reset link leads: staff and admin sign in on the back office, so their link opens the
   * back office's reset page; a customer's opens the shop's.
   */
  private resetSiteFor(role: UserView['role']): string {
    return role === 'customer' ? this.config.storefrontUrl : this.config.backofficeUrl;
  }

  async resetPassword(dto: ResetPasswordDto): Promise<void> {
    // A password too weak for the account's role is refused before the link is used up.
    const owner = await this.tokens.resetCodeOwner(dto.code);
    const account = owner ? await this.users.findById(owner) : null;
    if (account) this.credentials.checkPasswordFor(account.role, dto.password);
    const userId = await this.tokens.consumeResetCode(dto.code);
    if (!userId) throw new BadRequestException(INVALID_RESET_CODE);
    const user = await this.users.findById(userId);
    if (!user) throw new BadRequestException(INVALID_RESET_CODE);
    if (!user.isActive)
      throw new ForbiddenException({ message: DEACTIVATED_MESSAGE, code: 'ACCOUNT_DEACTIVATED' });
    await this.credentials.setPassword(userId, dto.password);
    await this.tokens.revokeAll(userId);
    this.logger.log(`Password reset for account ${userId}`);
  }

  /** Changes the password, ends every session, and starts a new one for the caller. */
  async changePassword(actor: Principal, dto: ChangePasswordDto): Promise<TokenPair> {
    await this.credentials.changePassword(actor, dto.currentPassword, dto.newPassword);
    await this.tokens.revokeAll(actor.id);
    return this.tokens.issue({ _id: actor.id, role: actor.role, fullName: actor.fullName });
  }
}
