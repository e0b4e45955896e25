import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Icon } from '../../components/icons';
import { Modal } from '../../components/modal';
import { paths } from '../../config/paths';
import { useUiStore } from '../../stores/ui-store';

/** Enter or the magnifier goes to the shop with the trimmed text; blank text does nothing. */
export function SearchOverlay() {
  const open = useUiStore((s) => s.searchOpen);
  const setOpen = useUiStore((s) => s.setSearchOpen);
  const [text, setText] = useState('');
  const navigate = useNavigate();
  const submit = () => {
    const q = text.trim();
    if (!q) return;
    setOpen(false);
    setText('');
    navigate(`${paths.shop}?search=${encodeURIComponent(q)}`);
  };
  return (
    <Modal open={open} onClose={() => setOpen(false)} title="Search">
      <form
        className="search-form"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label htmlFor="site-search" className="sr-only">
          Search seedlings
        </label>
        <input
          id="site-search"
          type="search"
          value={text}
          placeholder="Search seedlings..."
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" className="icon-btn" aria-label="Search">
          <Icon name="search" />
        </button>
      </form>
    </Modal>
  );
}
