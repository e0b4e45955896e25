import { paginationWindow } from '@spc/shared-contracts';

/** Pages with ellipses; previous never below 1, next never beyond the total. */
export function Pagination({
  page,
  totalPages,
  onChange,
}: {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pagination">
      <button
        type="button"
        onClick={() => onChange(Math.max(1, page - 1))}
        disabled={page <= 1}
        aria-label="Previous page"
      >
        ‹
      </button>
      {paginationWindow(page, totalPages).map((item) =>
        typeof item === 'number' ? (
          <button
            type="button"
            key={item}
            onClick={() => onChange(item)}
            aria-current={item === page ? 'page' : undefined}
            aria-label={`Page ${item}`}
            className={item === page ? 'active' : undefined}
          >
            {item}
          </button>
        ) : (
          <span key={item} aria-hidden="true">
            …
          </span>
        ),
      )}
      <button
        type="button"
        onClick={() => onChange(Math.min(totalPages, page + 1))}
        disabled={page >= totalPages}
        aria-label="Next page"
      >
        ›
      </button>
    </nav>
  );
}
