import type { Connection } from 'mongoose';
import { DatabaseWatchdog } from './database-watchdog';

function setup(readyState: number, connect = jest.fn().mockResolvedValue(undefined)) {
  const client = { close: jest.fn().mockResolvedValue(undefined), connect };
  const connection = { readyState, getClient: () => client } as unknown as Connection;
  const watchdog = new DatabaseWatchdog(connection);
  watchdog.onApplicationBootstrap();
  return { watchdog, client, connection: connection as { readyState: number } };
}

describe('DatabaseWatchdog', () => {
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
