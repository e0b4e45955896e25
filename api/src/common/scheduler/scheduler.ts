import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { SweepLeases } from './sweep-leases.store';

/** A piece of background work the API repeats: declared once, run by the scheduler. */
export interface Sweep {
  /** Unique and stable (`orders.expire-unpaid`): it names the sweep's lease and its log lines. */
  name: string;
  /** How often it runs, in ms; null or 0 when its setting turns it off. */
  everyMs: number | null;
  /**
   * `one`: one API instance at a time, under the sweep's lease in the database (work that must not
   * be done twice at once; per-item claims still guard each item); `every`: each instance for
   * itself (work on the instance's own state, such as its database connection).
   */
  runsOn: 'one' | 'every';
  /** Also run when the application starts (what a crash or a stop left to do), not one interval later. */
  atStart?: boolean;
  /** The work. `now` is the time it is due at: the work's "now" (what has expired, which day it is). */
  run(now: Date): Promise<unknown>;
}

interface Scheduled extends Sweep {
  everyMs: number;
  /** How long its lease is held unless renewed: a few intervals, at least 30 s, at most 10 min. */
  leaseMs: number;
  /** When it is next due (ms). */
  nextAt: number;
  running?: Promise<void>;
  /** The run asked for while it was running, and the latest time asked for. */
  after?: Promise<void>;
  afterAt?: Date;
}

/**
 * A run holds its lease at most this many lease lengths: a run that never ends (a hung call) lets
 * its lease lapse then, so another instance runs the sweep instead of none ever again.
 */
const MAX_HOLD_LEASES = 10;

/** The quickest tick: sweeps due more often than this run on the tick after. */
const MIN_TICK_MS = 100;

/**
 * The API's one timer. Modules declare their sweeps at start-up (`declare`, in `onModuleInit`); one
 * timer looks for the sweeps due, and `runDue(at)` runs every sweep due at `at` (the timer's call
 * is `runDue(new Date())`; a later `at` makes a daily sweep due now). A sweep never overlaps
 * itself on one instance: a run asked for while it runs waits for it. A one-instance sweep runs
 * only while this instance holds its lease (taken before each run, renewed while it runs; an
 * instance that stops lets go of its leases, one that dies has them lapse). On shutdown the timer
 * stops and the runs in hand are awaited before the database is closed.
 */
@Injectable()
export class Scheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Scheduler');
  /** This API instance, as a lease names its holder. */
  readonly instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly sweeps = new Map<string, Scheduled>();
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly leases: SweepLeases) {}

  /** Declares a sweep (at start-up); one that its settings turn off is left out. */
  declare(sweep: Sweep): void {
    if (this.sweeps.has(sweep.name)) throw new Error(`Sweep ${sweep.name} is declared twice`);
    if (!sweep.everyMs || sweep.everyMs <= 0) return;
    const everyMs = sweep.everyMs;
    this.sweeps.set(sweep.name, {
      ...sweep,
      everyMs,
      leaseMs: Math.min(10 * 60_000, Math.max(30_000, 3 * everyMs)),
      nextAt: sweep.atStart ? Number.NEGATIVE_INFINITY : Date.now() + everyMs,
    });
  }

  onApplicationBootstrap(): void {
    if (!this.sweeps.size) return;
    const tickMs = Math.max(
      MIN_TICK_MS,
      Math.min(...[...this.sweeps.values()].map((s) => s.everyMs)),
    );
    this.timer = setInterval(() => void this.runDue(), tickMs);
    // The timer never keeps the process alive: a stopping process does not wait for a sweep.
    this.timer.unref();
    this.logger.log(`Sweeps: ${[...this.sweeps.keys()].join(', ')}`);
    void this.runDue();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const inHand = [...this.sweeps.values()].flatMap((s) => [s.running, s.after]);
    await Promise.allSettled(inHand);
    await this.leases.releaseAll(this.instanceId).catch((error: Error) => {
      this.logger.warn(`Letting go of the sweep leases failed: ${error.message}`);
    });
  }

  /**
   * Runs every sweep due at `at` (default now), each once, and answers when they have run (one
   * running already is awaited, then run again if still due). A one-instance sweep whose lease
   * another instance holds is not run here.
   */
  async runDue(at = new Date()): Promise<void> {
    await Promise.all([...this.sweeps.values()].map((s) => this.runIfDue(s, at)));
  }

  private runIfDue(sweep: Scheduled, at: Date): Promise<void> {
    if (sweep.running) {
      // Never beside itself: the time asked for is looked at once the run in hand ends.
      if (!sweep.afterAt || sweep.afterAt < at) sweep.afterAt = at;
      sweep.after ??= sweep.running.then(() => {
        const afterAt = sweep.afterAt!;
        sweep.after = sweep.afterAt = undefined;
        return this.runIfDue(sweep, afterAt);
      });
      return sweep.after;
    }
    if (this.stopped || sweep.nextAt > at.getTime()) return Promise.resolve();
    // Due again an interval after the time it ran for; after now when that was ahead (a daily
    // sweep made due early keeps its rhythm from now on).
    sweep.nextAt = Math.min(at.getTime(), Date.now()) + sweep.everyMs;
    sweep.running = this.run(sweep, at).finally(() => (sweep.running = undefined));
    return sweep.running;
  }

  private async run(sweep: Scheduled, at: Date): Promise<void> {
    try {
      if (sweep.runsOn === 'every') {
        await sweep.run(at);
        return;
      }
      // Leases are compared across instances, whose one shared time is the wall clock.
      if (!(await this.leases.take(sweep.name, this.instanceId, sweep.leaseMs))) return;
      await whileRenewing(() => sweep.run(at), {
        everyMs: sweep.leaseMs / 3,
        renew: () => this.renew(sweep),
        maxMs: MAX_HOLD_LEASES * sweep.leaseMs,
        onGiveUp: () =>
          this.logger.error(
            `The ${sweep.name} sweep has run for ${MAX_HOLD_LEASES} leases: its lease is let lapse, another instance may run it`,
          ),
      });
    } catch (error) {
      this.logger.error(`The ${sweep.name} sweep failed: ${(error as Error).message}`);
    }
  }

  /** Holds a long run's lease a while longer; one lost meanwhile is only reported. */
  private async renew(sweep: Scheduled): Promise<void> {
    const held = await this.leases
      .take(sweep.name, this.instanceId, sweep.leaseMs)
      .catch(() => false);
    if (!held)
      this.logger.warn(
        `The ${sweep.name} sweep lost its lease while running (taken or unreachable)`,
      );
  }
}

/** How `whileRenewing` keeps a lease: renewed every `everyMs` for at most `maxMs`. */
export interface LeaseRenewal {
  everyMs: number;
  /** Takes the lease a while longer; false when it is gone (renewing stops). */
  renew: () => Promise<boolean | void>;
  maxMs?: number;
  /** Told when `maxMs` passed with the work still running (the lease is let lapse). */
  onGiveUp?: () => void;
}

/**
 * Runs `work` while its lease is renewed (a sweep's, a message's being sent), until the work ends,
 * the lease is gone or `maxMs` passed. With the scheduler's tick, the one timer of the API.
 */
export async function whileRenewing<T>(work: () => Promise<T>, lease: LeaseRenewal): Promise<T> {
  const until = Date.now() + (lease.maxMs ?? Number.POSITIVE_INFINITY);
  const timer = setInterval(() => {
    if (Date.now() >= until) {
      clearInterval(timer);
      lease.onGiveUp?.();
      return;
    }
    void lease.renew().then(
      (held) => held === false && clearInterval(timer),
      () => undefined,
    );
  }, lease.everyMs);
  timer.unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
