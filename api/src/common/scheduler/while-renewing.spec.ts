import { whileRenewing } from './scheduler';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('whileRenewing', () => {
  it('renews the lease while the work runs, and not after it ends', async () => {
    let renewals = 0;
    const answer = await whileRenewing(
      async () => {
        await pause(130);
        return 'done';
      },
      { everyMs: 20, renew: async () => void renewals++ },
    );
    const during = renewals;
    await pause(80);
    expect(answer).toBe('done');
    expect(during).toBeGreaterThanOrEqual(3);
    expect(renewals).toBe(during);
  });

  it('stops renewing once the lease is no longer held', async () => {
    let renewals = 0;
    await whileRenewing(() => pause(150), {
      everyMs: 20,
      renew: async () => ++renewals < 2,
    });
    expect(renewals).toBe(2);
  });

  it('lets the lease lapse after maxMs, saying so once, while the work goes on', async () => {
    let renewals = 0;
    const gaveUp: number[] = [];
    await whileRenewing(() => pause(200), {
      everyMs: 20,
      maxMs: 70,
      renew: async () => void renewals++,
      onGiveUp: () => gaveUp.push(renewals),
    });
    expect(gaveUp).toHaveLength(1);
    expect(renewals).toBeLessThanOrEqual(4);
  });

  it('passes the work failure on, and stops renewing', async () => {
    let renewals = 0;
    await expect(
      whileRenewing(
        async () => {
          await pause(50);
          throw new Error('mail server went away');
        },
        { everyMs: 20, renew: async () => void renewals++ },
      ),
    ).rejects.toThrow('mail server went away');
    const at = renewals;
    await pause(60);
    expect(renewals).toBe(at);
  });
});
