import type { Connection } from 'mongoose';
import type { Scheduler } from '../common/scheduler/scheduler';
import { DatabaseWatchdog } from './database-watchdog';

function setup(readyState: number, connect = jest.fn().mockResolvedValue(undefined)) {
  const client = { close: jest.fn().mockResolvedValue(undefined), connect };
  const connection = { readyState, getClient: () => client } as unknown as Connection;
  const scheduler = { declare: jest.fn() };
  const watchdog = new DatabaseWatchdog(connection, scheduler as unknown as Scheduler);
  watchdog.onModuleInit();
  return {
    watchdog,
    client,
    scheduler,
    connection: connection as { readyState: number },
  };
}

describe('DatabaseWatchdog', () => {
  it('is a sweep of every instance, every 5 s', () => {
    const { scheduler } = setup(1);
    expect(scheduler.declare).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'database.watchdog', everyMs: 5000, runsOn: 'every' }),
    );
  });

  it('leaves a connected client alone', async () => {
    const { watchdog, client } = setup(1);
    await watchdog.check(0);
    await watchdog.check(60_000);
    expect(client.close).not.toHaveBeenCalled();
    watchdog.onApplicationShutdown();
  });

  it('reconnects once the driver has had no server for 15 s, not before', async () => {
    const { watchdog, client } = setup(0);
    await watchdog.check(0);
    await watchdog.check(14_000);
    expect(client.close).not.toHaveBeenCalled();
    await watchdog.check(15_000);
    expect(client.close).toHaveBeenCalledTimes(1);
    expect(client.connect).toHaveBeenCalledTimes(1);
    watchdog.onApplicationShutdown();
  });

  it('starts counting again when the server comes back in between', async () => {
    const { watchdog, client, connection } = setup(0);
    await watchdog.check(0);
    connection.readyState = 1;
    await watchdog.check(10_000);
    connection.readyState = 0;
    await watchdog.check(20_000);
    expect(client.close).not.toHaveBeenCalled();
    watchdog.onApplicationShutdown();
  });

  it('does nothing after shutdown', async () => {
    const { watchdog, client } = setup(0);
    watchdog.onApplicationShutdown();
    await watchdog.check(0);
    await watchdog.check(60_000);
    expect(client.close).not.toHaveBeenCalled();
  });
});
