import { lazy, Suspense, useEffect } from 'react';
import { Outlet } from 'react-router';
import { Loading } from '../../components/states';
import { CartDrawer } from '../../features/cart/components/cart-drawer';
import { useCartStore } from '../../stores/cart-store';
import { useSessionStore } from '../../stores/session-store';
import { useUiStore } from '../../stores/ui-store';
import { Footer } from './footer';
import { SearchOverlay } from './search-overlay';
import { TopBar } from './top-bar';

// The modal carries the form library and zod; it loads only when opened.
const ChangePasswordModal = lazy(() =>
  import('../../features/user/components/change-password-modal').then((m) => ({
    default: m.ChangePasswordModal,
  })),
);

export function MainLayout() {
  const userId = useSessionStore((s) => s.user?._id);
  const changePasswordOpen = useUiStore((s) => s.changePasswordOpen);
  useEffect(() => {
    if (userId) useCartStore.getState().adoptUser(userId);
  }, [userId]);
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <TopBar />
      <main id="main" className="main">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <CartDrawer />
      <SearchOverlay />
      {changePasswordOpen && (
        <Suspense fallback={null}>
          <ChangePasswordModal />
        </Suspense>
      )}
    </>
  );
}
