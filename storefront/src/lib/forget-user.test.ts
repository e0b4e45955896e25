import { QueryClient } from '@tanstack/react-query';
import { useCartStore } from '../stores/cart-store';
import { useOrderBannerStore } from '../stores/order-banner-store';
import { useSessionStore } from '../stores/session-store';
import { forgetUserOnSignOut, PICTURES_CACHE } from './forget-user';

const user = {
  _id: 'u1',
  fullName: 'Wanjiku Kamau',
  email: 'w@example.co.ke',
  role: 'customer' as const,
};

/** The service worker's caches as far as the sign-out reads them. */
function fakeCaches(urls: string[]) {
  const kept = urls.map((url) => ({ url }));
  const pictures = {
    keys: async () => [...kept],
    delete: async (request: { url: string }) => {
      kept.splice(kept.indexOf(request), 1);
      return true;
    },
  };
  Object.assign(globalThis, {
    caches: {
      has: async (name: string) => name === PICTURES_CACHE,
      open: async () => pictures,
    },
  });
  return () => kept.map((r) => r.url);
}

afterEach(() => {
  delete (globalThis as { caches?: unknown }).caches;
  localStorage.clear();
});

describe('signing out on a shared phone', () => {
  it('forgets the last order number, the cart, the cached answers and the profile picture', async () => {
    const cached = fakeCaches([
      'https://api.example.co.ke/api/uploads/profiles/u1/256.webp',
      'https://api.example.co.ke/api/uploads/products/p1/480.webp',
    ]);
    const queryClient = new QueryClient();
    const stop = forgetUserOnSignOut(queryClient);
    useSessionStore.getState().signIn({ accessToken: 'a.b.c', refreshToken: 'r', user });
    useOrderBannerStore.getState().show('SPD7K3MX9QA');
    useCartStore.getState().addToCart({
      _id: 'p1',
      productName: 'Hass avocado',
      price: 250,
      userId: 'u1',
    } as Parameters<ReturnType<typeof useCartStore.getState>['addToCart']>[0]);
    queryClient.setQueryData(['orders', 'mine'], [{ purchaseNumber: 'SPD7K3MX9QA' }]);
    expect(localStorage.getItem('lastOrder')).toContain('SPD7K3MX9QA');

    useSessionStore.getState().signOut();
    await new Promise((r) => setTimeout(r, 0));

    expect(useOrderBannerStore.getState().purchaseNumber).toBeNull();
    expect(localStorage.getItem('lastOrder') ?? '').not.toContain('SPD7K3MX9QA');
    expect(useCartStore.getState().cartItems).toEqual([]);
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    expect(cached()).toEqual(['https://api.example.co.ke/api/uploads/products/p1/480.webp']);
    stop();
  });

  it('leaves a guest alone: nothing is forgotten while nobody was signed in', async () => {
    const queryClient = new QueryClient();
    const stop = forgetUserOnSignOut(queryClient);
    useOrderBannerStore.getState().show('SPD2222ABCD');
    useSessionStore.getState().signOut();
    await new Promise((r) => setTimeout(r, 0));
    expect(useOrderBannerStore.getState().purchaseNumber).toBe('SPD2222ABCD');
    stop();
  });
});
