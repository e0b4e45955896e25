import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { ConnectionStates, type Connection } from 'mongoose';
import { Scheduler } from '../common/scheduler/scheduler';

const CHECK_EVERY_MS = 5000;
const RECONNECT_AFTER_MS = 15_000;

/**
 * Reconnects the database client when it has seen no server for a while. The MongoDB driver (6.20)
 * can lose its server monitor when the database stops: the monitor's heartbeat waits for ever on a
 * connection whose socket is already gone, so the driver never notices the database is back and
 * every query fails until the process restarts (tools/drills/db-loss.ts caught it in about one run
 * in four). Closing and reconnecting the client starts a new monitor. It acts only when the driver
 * itself reports no usable server, never because queries are slow. Every instance watches its own
 * client (a sweep of every instance, which needs no database to run).
 */
@Injectable()
export class DatabaseWatchdog implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseWatchdog.name);
  private downSince?: number;
  private reconnecting = false;
  private stopped = false;

  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly scheduler: Scheduler,
  ) {}

  onModuleInit(): void {
    this.scheduler.declare({
      name: 'database.watchdog',
      everyMs: CHECK_EVERY_MS,
      runsOn: 'every',
      run: () => this.check(),
    });
  }

  /** A client closed on purpose is not reconnected. */
  onApplicationShutdown(): void {
    this.stopped = true;
  }

  /** One look: notes since when the driver has had no server, and reconnects past the limit. */
  async check(now = Date.now()): Promise<void> {
    if (this.reconnecting || this.stopped) return;
    if (this.connection.readyState === ConnectionStates.connected) {
      this.downSince = undefined;
      return;
    }
    this.downSince ??= now;
    if (now - this.downSince < RECONNECT_AFTER_MS) return;
    this.reconnecting = true;
    try {
      const client = this.connection.getClient();
      await client.close(true).catch(() => undefined);
      await client.connect();
      this.logger.warn(
        `Reconnected to the database after ${Math.round((Date.now() - this.downSince) / 1000)} s without it`,
      );
      this.downSince = undefined;
    } catch (error) {
      this.logger.warn(`The database is still unreachable: ${(error as Error).message}`);
      // Try again after another full interval without a server.
      this.downSince = Date.now();
    } finally {
      this.reconnecting = false;
    }
  }
}
