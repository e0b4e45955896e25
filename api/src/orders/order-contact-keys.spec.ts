import { contactKeysOf, orderSearchOf, type OrderSearch } from './order-contact-keys';

const contact = {
  fullName: 'Grace Wanjĩkũ Kamau',
  phoneNumber: '+254712345678',
  email: 'Grace.Kamau@Example.co.ke',
};

/** Whether a search finds the contact, as the database's equality on the keys does. */
function finds(search: string, of = contact): boolean {
  const keys = new Set(contactKeysOf(of));
  const asked: OrderSearch = orderSearchOf(search);
  return asked.kind === 'keys' && asked.keys.every((k) => keys.has(k));
}

describe('the orders search by contact keys', () => {
  it('finds a name by the start of any word, in any case and without accents', () => {
    for (const search of [
      'grace',
      'GRACE WANJIKU',
      'wanj',
      'Wanjĩ',
      'kamau grace',
      'ka',
      'g',
      'gra kam wanji',
      'wanjiku wanj',
    ])
      expect({ search, found: finds(search) }).toEqual({ search, found: search !== 'g' });
  });

  it('does not find a part in the middle of a word, or a word the contact lacks', () => {
    for (const search of ['anjik', 'race', 'grace njoroge', 'grace wanjiru', 'kamau kamande'])
      expect({ search, found: finds(search) }).toEqual({ search, found: false });
  });

  it('reads a search of two words from the key of their pair, one word from the longest', () => {
    expect(orderSearchOf('Wanjiku Kamau')).toEqual({
      kind: 'keys',
      keys: ['kam wan', 'wanjiku', 'kamau'],
    });
    expect(orderSearchOf('grace wanj kamau')).toEqual({
      kind: 'keys',
      keys: ['gra kam', 'grace', 'kamau', 'wanj'],
    });
    // Words too short to pair, or one starting the other (both may start one word): no pair.
    expect(orderSearchOf('jo kamau')).toEqual({ kind: 'keys', keys: ['kamau', 'jo'] });
    expect(orderSearchOf('wanj wanjiku')).toEqual({ kind: 'keys', keys: ['wanjiku', 'wanj'] });
    expect(contactKeysOf(contact)).toEqual(
      expect.arrayContaining(['gra wan', 'gra kam', 'kam wan']),
    );
  });

  it('finds a phone however it is typed, by its start or its end', () => {
    for (const search of ['0712 345 678', '+254-712-345-678', '712345678', '0712', '5678', '678'])
      expect({ search, found: finds(search) }).toEqual({ search, found: true });
    for (const search of ['2345', '45', '0713345678'])
      expect({ search, found: finds(search) }).toEqual({ search, found: false });
  });

  it('finds an e-mail whole or by the words before the @', () => {
    expect(finds('grace.kamau@example.co.ke')).toBe(true);
    expect(finds('GRACE.KAMAU@EXAMPLE.CO.KE')).toBe(true);
    expect(finds('kamau@example.co.ke')).toBe(false);
    expect(finds('grace.kam')).toBe(true);
    expect(finds('example')).toBe(false);
  });

  it('reads a purchase number whole or by its start, and nothing from punctuation', () => {
    expect(orderSearchOf(' spd7k2mxq9p ')).toEqual({ kind: 'number', number: 'SPD7K2MXQ9P' });
    expect(orderSearchOf('spd7k2')).toEqual({
      kind: 'number-prefix',
      from: 'SPD7K2',
      to: 'SPD7K2ZZZZZZZZ',
    });
    // Too short a start names thousands of orders: it is searched as a word.
    expect(orderSearchOf('SPD7')).toEqual({ kind: 'keys', keys: ['spd7'] });
    expect(orderSearchOf('%%% ---')).toEqual({ kind: 'nothing' });
    expect(orderSearchOf('a\u0000b')).toEqual({ kind: 'keys', keys: ['a', 'b'] });
  });

  it('keeps an erased contact to its placeholder name and bounds every key', () => {
    expect(contactKeysOf({ fullName: '', phoneNumber: '', email: '' })).toEqual([]);
    const long = contactKeysOf({ fullName: 'x'.repeat(500), phoneNumber: '', email: '' });
    expect(Math.max(...long.map((k) => k.length))).toBe(24);
    expect(contactKeysOf(contact).length).toBeLessThan(60);
  });
});
