import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { Loading } from '../../components/states';
import { shopContactsQueryOptions } from '../../lib/shop-contacts';
import { useOnline } from '../../lib/use-online';
import { useCartStore } from '../../stores/cart-store';
import { useSessionStore } from '../../stores/session-store';
import { useUiStore } from '../../stores/ui-store';
import { Footer } from './footer';
import { TopBar } from './top-bar';

// The cart drawer and the search overlay wait for the first tap that opens them: their code (the
// dialog, the quantity boxes, the remove confirmation) is not part of the first load.
const CartDrawer = lazy(() =>
  import('../../features/cart/components/cart-drawer').then((m) => ({ default: m.CartDrawer })),
);
const SearchOverlay = lazy(() =>
  import('./search-overlay').then((m) => ({ default: m.SearchOverlay })),
);

/** True from the first time `flag` is true: an overlay once loaded stays mounted. */
function useEver(flag: boolean) {
  const [ever, setEver] = useState(flag);
  if (flag && !ever) setEver(true);
  return ever || flag;
}

// The modal carries the form library and zod; it loads only when opened.
const ChangePasswordModal = lazy(() =>
  import('../../features/user/components/change-password-modal').then((m) => ({
    default: m.ChangePasswordModal,
  })),
);

/** Said once, at the top, while the phone has no network: what still works and what does not. */
function OfflineBar() {
  const online = useOnline();
  if (online) return null;
  return (
    <p className="offline-bar" role="status">
      You are offline. You can browse what you have seen and keep your cart; placing an order,
      signing in and tracking need the network.
    </p>
  );
}

export function MainLayout() {
  const userId = useSessionStore((s) => s.user?._id);
  const changePasswordOpen = useUiStore((s) => s.changePasswordOpen);
  const cartWanted = useEver(useUiStore((s) => s.cartOpen));
  const searchWanted = useEver(useUiStore((s) => s.searchOpen));
  useEffect(() => {
    if (userId) useCartStore.getState().adoptUser(userId);
  }, [userId]);
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <TopBar />
      <OfflineBar />
      <main id="main" className="main">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <Suspense fallback={null}>
        {cartWanted && <CartDrawer />}
        {searchWanted && <SearchOverlay />}
      </Suspense>
      {changePasswordOpen && (
        <Suspense fallback={null}>
          <ChangePasswordModal />
        </Suspense>
      )}
    </>
  );
}

/** The footer's contacts are asked for with the screen's code, before the first render. */
MainLayout.prefetch = (client: QueryClient) =>
  void client.prefetchQuery(shopContactsQueryOptions());
