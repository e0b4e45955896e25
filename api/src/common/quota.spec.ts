import { holdSlots, type HoldDimension } from './quota';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo + 1));

class SlotCollision extends Error {}

/**
 * A unique index of slot names as a database holds it: a read answers what was written when it ran,
 * an insert is checked and written at one moment of its round trip.
 */
function slotStore() {
  const held = new Set<string>();
  return {
    held,
    taken: async (keys: string[]) => {
      await pause(between(1, 8));
      const names = [...held].filter((n) => keys.some((k) => n.startsWith(`${k}#`)));
      await pause(between(1, 8));
      return names;
    },
    insert: async (slots: string[]) => {
      await pause(between(1, 15));
      if (slots.some((s) => held.has(s))) throw new SlotCollision();
      for (const s of slots) held.add(s);
      await pause(between(1, 15));
      return slots;
    },
  };
}

describe('holdSlots', () => {
  it('seats as many holders at once as there are slots, none refused while a slot is free', async () => {
    const refusals: string[] = [];
    for (let round = 0; round < 5; round++) {
      const store = slotStore();
      const dimension: HoldDimension = { key: 'net:abc', limit: 40 };
      const answers = await Promise.all(
        Array.from({ length: 40 }, () =>
          holdSlots([dimension], store.taken, store.insert, (e) => e instanceof SlotCollision).then(
            (a) => (a.held ? 'held' : 'full'),
            (e: Error) => e.constructor.name,
          ),
        ),
      );
      refusals.push(...answers.filter((a) => a !== 'held'));
      expect(store.held.size).toBe(answers.filter((a) => a === 'held').length);
    }
    expect(refusals).toEqual([]);
  });

  it('refuses the holder past the limit, and writes nothing for it', async () => {
    const store = slotStore();
    const dimension: HoldDimension = { key: 'phone:x', limit: 3 };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        holdSlots([dimension], store.taken, store.insert, (e) => e instanceof SlotCollision).then(
          (a) => a.held,
          () => 'collided',
        ),
      ),
    );
    expect(answers.filter((a) => a === true)).toHaveLength(3);
    expect(store.held.size).toBe(3);
  });
});
