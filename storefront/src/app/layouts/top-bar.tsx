import { initials } from '@spc/shared-contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { Icon } from '../../components/icons';
import { paths } from '../../config/paths';
import { api, assetUrl } from '../../lib/api-client';
import { useCartCount, useCartStore } from '../../stores/cart-store';
import { useSessionStore } from '../../stores/session-store';
import { useUiStore } from '../../stores/ui-store';

const MENU = [
  { label: 'HOME', to: paths.home },
  { label: 'OUR SHOP', to: paths.shop },
  { label: 'BLOG', to: '' },
  { label: 'ABOUT US', to: paths.about },
  { label: 'CONTACT US', to: paths.contact },
];

/** Logout: storage, cart and cached data cleared, dropdown closed, home. */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return () => {
    const refreshToken = useSessionStore.getState().refreshToken;
    if (refreshToken)
      void api.POST('/api/auth/logout', { body: { refreshToken } }).catch(() => undefined);
    useSessionStore.getState().signOut();
    useCartStore.getState().clearCart();
    useUiStore.getState().setDropdownOpen(false);
    queryClient.clear();
    navigate(paths.home);
  };
}

export function TopBar() {
  const user = useSessionStore((s) => s.user);
  const count = useCartCount();
  const sidebarOpen = useUiStore((s) => s.sidebarOpen);
  const dropdownOpen = useUiStore((s) => s.dropdownOpen);
  const setSidebarOpen = useUiStore((s) => s.setSidebarOpen);
  const setDropdownOpen = useUiStore((s) => s.setDropdownOpen);
  const setCartOpen = useUiStore((s) => s.setCartOpen);
  const setSearchOpen = useUiStore((s) => s.setSearchOpen);
  const setChangePasswordOpen = useUiStore((s) => s.setChangePasswordOpen);
  const logout = useLogout();
  const isAdmin = user?.role === 'admin';
  const avatarRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!dropdownOpen) return;
    const onDown = (e: MouseEvent) => {
      if (!avatarRef.current?.contains(e.target as Node)) setDropdownOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [dropdownOpen, setDropdownOpen]);
  // Escape closes the slide-in panel and the account dropdown.
  useEffect(() => {
    if (!sidebarOpen && !dropdownOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setSidebarOpen(false);
      setDropdownOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [sidebarOpen, dropdownOpen, setSidebarOpen, setDropdownOpen]);
  const menu =
    user?.role === 'customer' ? [...MENU, { label: 'MY ORDERS', to: paths.myOrders }] : MENU;

  return (
    <header className="topbar">
      <div className="banner" aria-label="Welcome">
        <p className="banner-track">
          Welcome to the Seedling Propagation Centre · Explore quality seedlings · Grow with expert
          support
        </p>
      </div>
      <div className="nav">
        <button
          type="button"
          className="icon-btn burger"
          aria-label="Open menu"
          aria-expanded={sidebarOpen}
          aria-controls="main-menu"
          onClick={() => setSidebarOpen(!sidebarOpen)}
        >
          <Icon name="menu" />
        </button>
        <Link to={paths.home} className="logo">
          <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true">
            <circle cx="16" cy="16" r="16" fill="#2f6b2f" />
            <path
              d="M16 25V14M16 16c-5 0-7-3-7-7 5 0 7 3 7 7zm0 2c0-5 3-8 8-8 0 5-3 8-8 8z"
              fill="#bfe3a5"
            />
          </svg>
          <span>SPC Seedlings</span>
        </Link>
        {sidebarOpen && (
          <div className="backdrop" aria-hidden="true" onClick={() => setSidebarOpen(false)} />
        )}
        <nav id="main-menu" className={`menu${sidebarOpen ? ' open' : ''}`} aria-label="Main">
          <button
            type="button"
            className="icon-btn menu-close"
            aria-label="Close menu"
            onClick={() => setSidebarOpen(false)}
          >
            <Icon name="close" />
          </button>
          <ul>
            {menu.map((item) =>
              item.to ? (
                <li key={item.label}>
                  <NavLink to={item.to} end onClick={() => setSidebarOpen(false)}>
                    {item.label}
                  </NavLink>
                </li>
              ) : (
                <li key={item.label}>
                  <a href="#" onClick={(e) => e.preventDefault()}>
                    {item.label}
                  </a>
                </li>
              ),
            )}
          </ul>
        </nav>
        <div className="nav-icons">
          {!isAdmin && (
            <Link
              to={paths.track}
              className="icon-btn tip"
              aria-label="Track Orders"
              data-tip="Track Orders"
            >
              <Icon name="truck" />
            </Link>
          )}
          <button
            type="button"
            className="icon-btn"
            aria-label="Search"
            onClick={() => setSearchOpen(true)}
          >
            <Icon name="search" />
          </button>
          {!isAdmin && (
            <button
              type="button"
              className="icon-btn cart-btn"
              aria-label={`Cart, ${count} items`}
              onClick={() => setCartOpen(true)}
            >
              <Icon name="cart" />
              {count > 0 && (
                <span className="badge" data-testid="cart-badge">
                  {count}
                </span>
              )}
            </button>
          )}
          {user ? (
            <div className="avatar-wrap" ref={avatarRef}>
              <button
                type="button"
                className="avatar"
                aria-label={`${user.profilePicture ? '' : `${initials(user.fullName)}, `}Account menu`}
                aria-haspopup="menu"
                aria-expanded={dropdownOpen}
                onClick={() => setDropdownOpen(!dropdownOpen)}
              >
                {user.profilePicture ? (
                  <img src={assetUrl(user.profilePicture)} alt="" width={36} height={36} />
                ) : (
                  initials(user.fullName)
                )}
              </button>
              {dropdownOpen && (
                <ul className="dropdown" role="menu">
                  {!isAdmin && (
                    <li role="none">
                      <Link
                        role="menuitem"
                        to={paths.profile}
                        onClick={() => setDropdownOpen(false)}
                      >
                        Profile
                      </Link>
                    </li>
                  )}
                  {user.role === 'customer' && (
                    <li role="none">
                      <Link
                        role="menuitem"
                        to={paths.myOrganisation}
                        onClick={() => setDropdownOpen(false)}
                      >
                        Organisation
                      </Link>
                    </li>
                  )}
                  <li role="none">
                    <button
                      role="menuitem"
                      type="button"
                      onClick={() => {
                        setDropdownOpen(false);
                        setChangePasswordOpen(true);
                      }}
                    >
                      Change password
                    </button>
                  </li>
                  <li role="none">
                    <button role="menuitem" type="button" onClick={logout}>
                      Logout
                    </button>
                  </li>
                </ul>
              )}
            </div>
          ) : (
            <Link to={paths.login} className="icon-btn" aria-label="Sign in">
              <Icon name="user" />
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}
