import { cartKey, linePricing, useCartStore, type NewCartItem } from './cart-store';
import { cartGroups } from './cart-groups';

const item = (overrides: Partial<NewCartItem> = {}): NewCartItem => ({
  _id: 'p1',
  userId: '',
  productName: 'Kale',
  productDescription: 'Collard greens',
  productImage: '',
  price: 20,
  ...overrides,
});

const state = () => useCartStore.getState();

beforeEach(() => {
  localStorage.clear();
  useCartStore.setState({ userId: '', cartItems: [], totalAmount: 0 });
});

describe('cart store', () => {
  it('appends a new product with quantity 1 and totals it', () => {
    state().addToCart(item());
    expect(state().cartItems).toEqual([expect.objectContaining({ _id: 'p1', quantity: 1 })]);
    expect(state().totalAmount).toBe(20);
  });

  it('raises the quantity by 1 when the same product is added again', () => {
    state().addToCart(item());
    state().addToCart(item());
    state().addToCart(item({ _id: 'p2', price: 100 }));
    expect(state().cartItems.map((i) => [i._id, i.quantity])).toEqual([
      ['p1', 2],
      ['p2', 1],
    ]);
    expect(state().totalAmount).toBe(140);
  });

  it('empties the cart first when an item of another user is added', () => {
    state().addToCart(item({ userId: 'alice' }));
    state().addToCart(item({ _id: 'p2', userId: 'bob' }));
    expect(state().userId).toBe('bob');
    expect(state().cartItems.map((i) => i._id)).toEqual(['p2']);
  });

  it('sets the quantity on increase and never lowers it below 1 on decrease', () => {
    state().addToCart(item());
    state().increaseQuantity('p1', 3);
    expect(state().cartItems[0]!.quantity).toBe(3);
    expect(state().totalAmount).toBe(60);
    state().decreaseQuantity('p1');
    state().decreaseQuantity('p1');
    state().decreaseQuantity('p1');
    expect(state().cartItems[0]!.quantity).toBe(1);
    expect(state().totalAmount).toBe(20);
  });

  it('ignores a quantity that is not a positive number', () => {
    state().addToCart(item());
    state().increaseQuantity('p1', 0);
    state().increaseQuantity('p1', Number.NaN);
    expect(state().cartItems[0]!.quantity).toBe(1);
  });

  it('removes an item and recalculates the total', () => {
    state().addToCart(item());
    state().addToCart(item({ _id: 'p2', price: 5 }));
    state().removeFromCart('p1');
    expect(state().cartItems.map((i) => i._id)).toEqual(['p2']);
    expect(state().totalAmount).toBe(5);
  });

  it('clearing empties the cart and forgets the user', () => {
    state().addToCart(item({ userId: 'alice' }));
    state().clearCart();
    expect(state()).toMatchObject({ userId: '', cartItems: [], totalAmount: 0 });
  });

  it('clears and reassigns the cart when the signed-in user differs', () => {
    state().addToCart(item({ userId: 'alice' }));
    state().adoptUser('bob');
    expect(state()).toMatchObject({ userId: 'bob', cartItems: [], totalAmount: 0 });
  });

  it("adopts a guest's cart, items and total, for whoever signs in", () => {
    state().addToCart(item());
    state().addToCart(item({ _id: 'p2', price: 5 }));
    state().adoptUser('alice');
    expect(state().userId).toBe('alice');
    expect(state().cartItems.map((i) => [i._id, i.userId])).toEqual([
      ['p1', 'alice'],
      ['p2', 'alice'],
    ]);
    expect(state().totalAmount).toBe(25);
    // Adding as the signed-in user keeps the adopted lines.
    state().addToCart(item({ _id: 'p3', userId: 'alice', price: 1 }));
    expect(state().cartItems).toHaveLength(3);
  });

  it("a signed-in shopper's first add keeps the guest lines already in the cart", () => {
    state().addToCart(item());
    state().addToCart(item({ _id: 'p2', userId: 'alice' }));
    expect(state().cartItems.map((i) => i._id)).toEqual(['p1', 'p2']);
  });

  it('keeps the cart when the same user signs in again', () => {
    state().addToCart(item({ userId: 'alice' }));
    state().adoptUser('alice');
    expect(state().cartItems).toHaveLength(1);
  });

  it('persists the cart in localStorage', () => {
    state().addToCart(item());
    expect(JSON.parse(localStorage.getItem('cart')!).state.cartItems[0]._id).toBe('p1');
  });
});

describe('cart store with sale units', () => {
  const single = {
    _id: 'p1',
    name: 'Single seedling',
    seedlings: 1,
    price: 20,
    offerPrice: 0,
    sku: '',
    minQuantity: 10,
    step: 10,
    tiers: [],
  };
  const tray = {
    ...single,
    _id: 't1',
    name: 'Tray of 50',
    seedlings: 50,
    price: 600,
    minQuantity: 1,
    step: 1,
    tiers: [{ minQuantity: 10, price: 540 }],
  };

  it('keeps a tray and singles of one product as two lines, each on its steps', () => {
    state().addToCart(item({ unit: single }));
    state().addToCart(item({ unit: single }));
    state().addToCart(item({ unit: tray }), 9);
    expect(state().cartItems.map((i) => [cartKey(i), i.quantity])).toEqual([
      ['p1', 20],
      ['p1:t1', 9],
    ]);
    state().increaseQuantity('p1', 25);
    state().decreaseQuantity('p1');
    expect(state().cartItems[0]!.quantity).toBe(20);
    state().decreaseQuantity('p1');
    state().decreaseQuantity('p1');
    expect(state().cartItems[0]!.quantity).toBe(10);
  });

  it('prices a line at the tier its quantity reaches', () => {
    state().addToCart(item({ unit: tray }), 9);
    expect(state().totalAmount).toBe(9 * 600);
    state().increaseQuantity('p1:t1', 12);
    expect(linePricing(state().cartItems[0]!)).toEqual({
      unitPrice: 540,
      tier: { minQuantity: 10, price: 540 },
      onOffer: false,
    });
    expect(state().totalAmount).toBe(12 * 540);
  });
});

describe('bookings in the cart', () => {
  const booking = (batchId: string, readyOn: string) => ({ booking: { batchId, readyOn } });

  it('keeps a booking of a batch apart from the same product ready now, and groups the orders', () => {
    state().addToCart(item(), 2);
    state().addToCart(item(booking('b2', '2027-04-02')), 3);
    state().addToCart(item(booking('b1', '2027-03-12')), 1);
    state().addToCart(item(booking('b1', '2027-03-12')));
    expect(state().cartItems.map((i) => [cartKey(i), i.quantity])).toEqual([
      ['p1', 2],
      ['p1@b2', 3],
      ['p1@b1', 2],
    ]);
    expect(cartGroups(state().cartItems).map((g) => [g.key, g.items.length])).toEqual([
      ['', 1],
      ['b1', 1],
      ['b2', 1],
    ]);
  });

  it('takes out the lines of one placed order and keeps the others', () => {
    state().addToCart(item(), 2);
    state().addToCart(item(booking('b1', '2027-03-12')), 1);
    state().removeLines(['p1@b1']);
    expect(state().cartItems.map((i) => cartKey(i))).toEqual(['p1']);
    expect(state().totalAmount).toBe(40);
  });
});
