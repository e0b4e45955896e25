import { KeyedQueue } from './keyed-queue';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedQueue', () => {
  it('runs the tasks of one key one at a time, in order', async () => {
    const queue = new KeyedQueue();
    const events: string[] = [];
    let running = 0;
    const task = (name: string) => async () => {
      running += 1;
      expect(running).toBe(1);
      events.push(`start ${name}`);
      await tick();
      events.push(`end ${name}`);
      running -= 1;
      return name;
    };
    const results = await Promise.all(['a', 'b', 'c'].map((n) => queue.run('product-1', task(n))));
    expect(results).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(queue.size).toBe(0);
  });

  it('lets different keys run side by side', async () => {
    const queue = new KeyedQueue();
    let running = 0;
    let most = 0;
    const task = async () => {
      running += 1;
      most = Math.max(most, running);
      await tick();
      running -= 1;
    };
    await Promise.all([queue.run('a', task), queue.run('b', task), queue.run('c', task)]);
    expect(most).toBe(3);
  });

  it('goes on with the next task after one fails, and gives the failure to its caller', async () => {
    const queue = new KeyedQueue();
    const failing = queue.run('k', async () => {
      throw new Error('boom');
    });
    const next = queue.run('k', async () => 'next');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
    expect(queue.size).toBe(0);
  });
});
