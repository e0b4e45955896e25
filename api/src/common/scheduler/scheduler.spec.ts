import { Scheduler, type Sweep } from './scheduler';
import type { SweepLeases } from './sweep-leases.store';

/** Leases in memory, as the store keeps them: one holder per sweep until it lapses. */
function memoryLeases() {
  const held = new Map<string, { holder: string; expiresAt: number }>();
  const leases = {
    take: jest.fn(async (sweep: string, holder: string, forMs: number, now = new Date()) => {
      const lease = held.get(sweep);
      if (lease && lease.holder !== holder && lease.expiresAt > now.getTime()) return false;
      held.set(sweep, { holder, expiresAt: now.getTime() + forMs });
      return true;
    }),
    releaseAll: jest.fn(async (holder: string) => {
      for (const lease of held.values()) if (lease.holder === holder) lease.expiresAt = 0;
    }),
  };
  return { leases, held, as: leases as unknown as SweepLeases };
}

function sweep(over: Partial<Sweep> = {}): Sweep & { run: jest.Mock } {
  return {
    name: 'test.sweep',
    everyMs: 60_000,
    runsOn: 'one',
    run: jest.fn().mockResolvedValue(undefined),
    ...over,
  } as Sweep & { run: jest.Mock };
}

const HOUR = 3_600_000;
const later = (ms: number) => new Date(Date.now() + ms);

describe('Scheduler', () => {
  let schedulers: Scheduler[] = [];
  const make = (leases: SweepLeases) => {
    const s = new Scheduler(leases);
    schedulers.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(schedulers.map((s) => s.onModuleDestroy()));
    schedulers = [];
  });

  it('runs a sweep when its interval has passed, with the time it is due at, not before', async () => {
    const scheduler = make(memoryLeases().as);
    const digest = sweep({ everyMs: 24 * HOUR });
    scheduler.declare(digest);
    await scheduler.runDue();
    expect(digest.run).not.toHaveBeenCalled();
    const tomorrow = later(25 * HOUR);
    await scheduler.runDue(tomorrow);
    expect(digest.run).toHaveBeenCalledWith(tomorrow);
    // Due again a day after that run began, not an hour later.
    await scheduler.runDue(later(HOUR));
    expect(digest.run).toHaveBeenCalledTimes(1);
  });

  it('runs a sweep on every tick of its interval, and no more once the application stops', async () => {
    jest.useFakeTimers();
    try {
      const scheduler = make(memoryLeases().as);
      const watch = sweep({ runsOn: 'every', everyMs: 1000 });
      scheduler.declare(watch);
      scheduler.onApplicationBootstrap();
      await jest.advanceTimersByTimeAsync(3000);
      expect(watch.run).toHaveBeenCalledTimes(3);
      await scheduler.onModuleDestroy();
      await jest.advanceTimersByTimeAsync(3000);
      expect(watch.run).toHaveBeenCalledTimes(3);
    } finally {
      jest.useRealTimers();
    }
  });

  it('runs a start-up sweep at once', async () => {
    const scheduler = make(memoryLeases().as);
    const retention = sweep({ atStart: true, everyMs: 24 * HOUR });
    scheduler.declare(retention);
    await scheduler.runDue();
    expect(retention.run).toHaveBeenCalledTimes(1);
  });

  it('leaves out a sweep its settings turn off, and refuses a name declared twice', async () => {
    const scheduler = make(memoryLeases().as);
    const off = sweep({ everyMs: null, atStart: true });
    scheduler.declare(off);
    await scheduler.runDue(later(HOUR));
    expect(off.run).not.toHaveBeenCalled();
    scheduler.declare(sweep({ name: 'twice' }));
    expect(() => scheduler.declare(sweep({ name: 'twice' }))).toThrow('declared twice');
  });

  it('never runs a sweep beside itself: a run asked for meanwhile follows it', async () => {
    const scheduler = make(memoryLeases().as);
    let inside = 0;
    let most = 0;
    const slow = sweep({
      everyMs: 1000,
      run: jest.fn(async () => {
        most = Math.max(most, ++inside);
        await new Promise((r) => setTimeout(r, 20));
        inside--;
      }),
    });
    scheduler.declare(slow);
    await Promise.all([
      scheduler.runDue(later(HOUR)),
      scheduler.runDue(later(HOUR)),
      scheduler.runDue(later(2 * HOUR)),
    ]);
    expect(most).toBe(1);
    expect(slow.run).toHaveBeenCalledTimes(2);
  });

  it('runs a one-instance sweep on the instance holding its lease only; every-instance sweeps everywhere', async () => {
    const { as } = memoryLeases();
    const [a, b] = [make(as), make(as)];
    const once = [sweep(), sweep()];
    const each = [
      sweep({ name: 'watch', runsOn: 'every' }),
      sweep({ name: 'watch', runsOn: 'every' }),
    ];
    a.declare(once[0]!);
    b.declare(once[1]!);
    a.declare(each[0]!);
    b.declare(each[1]!);
    await Promise.all([a.runDue(later(HOUR)), b.runDue(later(HOUR))]);
    expect(once[0]!.run.mock.calls.length + once[1]!.run.mock.calls.length).toBe(1);
    expect(each.map((s) => s.run.mock.calls.length)).toEqual([1, 1]);
  });

  it('lets go of its leases when it stops, so another instance runs the sweep at once', async () => {
    const { as, held } = memoryLeases();
    const [a, b] = [make(as), make(as)];
    const [onA, onB] = [sweep(), sweep()];
    a.declare(onA);
    b.declare(onB);
    await a.runDue(later(HOUR));
    await b.runDue(later(HOUR));
    expect([onA.run.mock.calls.length, onB.run.mock.calls.length]).toEqual([1, 0]);
    await a.onModuleDestroy();
    expect(held.get('test.sweep')!.expiresAt).toBe(0);
    await b.runDue(later(HOUR));
    expect(onB.run).toHaveBeenCalledTimes(1);
  });

  it('logs a failed run and runs the sweep again when it is next due', async () => {
    const scheduler = make(memoryLeases().as);
    const flaky = sweep({ run: jest.fn().mockRejectedValueOnce(new Error('no server')) });
    scheduler.declare(flaky);
    await scheduler.runDue(later(HOUR));
    await scheduler.runDue(later(2 * HOUR));
    expect(flaky.run).toHaveBeenCalledTimes(2);
  });

  it('lets the lease of a run that never ends lapse, so another instance runs the sweep (attack)', async () => {
    jest.useFakeTimers();
    try {
      const { as } = memoryLeases();
      // Not stopped in afterEach: its stop would wait for the run that never ends.
      const stuck = new Scheduler(as);
      const other = make(as);
      const hung = sweep({ run: jest.fn(() => new Promise<void>(() => undefined)) });
      const fine = sweep();
      stuck.declare(hung);
      other.declare(fine);
      void stuck.runDue(later(2 * 60_000));
      await jest.advanceTimersByTimeAsync(0);
      expect(hung.run).toHaveBeenCalledTimes(1);
      // A day later the hung run still renews its lease: the sweep runs nowhere.
      await jest.advanceTimersByTimeAsync(24 * HOUR);
      await other.runDue(later(2 * 60_000));
      expect(fine.run).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });
});
