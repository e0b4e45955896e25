import type { QueryClient } from '@tanstack/react-query';
import { useCartStore } from '../stores/cart-store';
import { useOrderBannerStore } from '../stores/order-banner-store';
import { webClient } from './api-client';

/** The service worker's cache of pictures (see vite.config.ts), and where profile pictures live. */
export const PICTURES_CACHE = 'pictures';
const PROFILE_PICTURES = '/api/uploads/profiles/';

/**
 * Forgets what identifies the shopper who signed out, so the next person on a shared phone sees
 * none of it: the last order's number (its banner), the cart, every answer of theirs the app still
 * holds (orders, profile) and any profile picture the service worker kept from an older release.
 */
export async function forgetSignedOutUser(queryClient: QueryClient): Promise<void> {
  useOrderBannerStore.getState().close();
  useCartStore.getState().clearCart();
  queryClient.clear();
  if (typeof caches === 'undefined' || !(await caches.has(PICTURES_CACHE))) return;
  const pictures = await caches.open(PICTURES_CACHE);
  for (const request of await pictures.keys())
    if (new URL(request.url).pathname.startsWith(PROFILE_PICTURES)) await pictures.delete(request);
}

/**
 * Forgets the shopper whenever their session ends: signing out, or a session that could no longer
 * be renewed. Answers the unsubscribe.
 */
export function forgetUserOnSignOut(queryClient: QueryClient): () => void {
  return webClient.session.subscribe((state, previous) => {
    if (previous.user && !state.user) void forgetSignedOutUser(queryClient).catch(() => undefined);
  });
}
