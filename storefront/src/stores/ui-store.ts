import { create } from 'zustand';

/** Which overlay of the shell is open; the sidebar and the nav dropdown close each other. */
interface UiState {
  cartOpen: boolean;
  searchOpen: boolean;
  sidebarOpen: boolean;
  dropdownOpen: boolean;
  changePasswordOpen: boolean;
  setCartOpen: (open: boolean) => void;
  setSearchOpen: (open: boolean) => void;
  setSidebarOpen: (open: boolean) => void;
  setDropdownOpen: (open: boolean) => void;
  setChangePasswordOpen: (open: boolean) => void;
}

export const useUiStore = create<UiState>()((set) => ({
  cartOpen: false,
  searchOpen: false,
  sidebarOpen: false,
  dropdownOpen: false,
  changePasswordOpen: false,
  setCartOpen: (cartOpen) => set({ cartOpen }),
  setSearchOpen: (searchOpen) => set({ searchOpen }),
  setSidebarOpen: (sidebarOpen) =>
    set(sidebarOpen ? { sidebarOpen, dropdownOpen: false } : { sidebarOpen }),
  setDropdownOpen: (dropdownOpen) =>
    set(dropdownOpen ? { dropdownOpen, sidebarOpen: false } : { dropdownOpen }),
  setChangePasswordOpen: (changePasswordOpen) => set({ changePasswordOpen }),
}));
