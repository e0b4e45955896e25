import { Button, Group, Text } from '@mantine/core';
import { paginationWindow } from '@spc/shared-contracts';

/**
 * Previous / numbered pages / next: every page up to 8, else first, last, a window around
 * the current page and ellipses. Previous is disabled on page 1, next on the last page, unless
 * `more` says pages follow the ones counted (a total that is a lower bound: an ellipsis after the
 * last page counted, and next stays enabled). `total` names the count before the buttons.
 */
export function PaginationControl({
  page,
  totalPages,
  onChange,
  more = false,
  total,
}: {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  more?: boolean;
  /** The list's total as read, e.g. "1,000+ orders". */
  total?: string;
}) {
  if (totalPages <= 1 && !more) return null;
  return (
    <Group gap={4} justify="center" mt="md" component="nav" aria-label="Pagination">
      {total && (
        <Text size="sm" c="dimmed" mr="sm" data-testid="pagination-total">
          {total}
        </Text>
      )}
      <Button variant="default" size="xs" disabled={page <= 1} onClick={() => onChange(page - 1)}>
        Previous
      </Button>
      {paginationWindow(page, totalPages).map((item) =>
        typeof item === 'number' ? (
          <Button
            key={item}
            size="xs"
            variant={item === page ? 'filled' : 'default'}
            aria-current={item === page ? 'page' : undefined}
            onClick={() => onChange(item)}
          >
            {item}
          </Button>
        ) : (
          <Text key={item} px={4} aria-hidden>
            …
          </Text>
        ),
      )}
      {more && (
        <Text px={4} aria-hidden>
          …
        </Text>
      )}
      <Button
        variant="default"
        size="xs"
        disabled={page >= totalPages && !more}
        onClick={() => onChange(page + 1)}
      >
        Next
      </Button>
    </Group>
  );
}
