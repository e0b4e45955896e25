import { Button, Group, Text } from '@mantine/core';
import { describeTotal, paginationWindow } from '@spc/shared-contracts';

/** A list's total as the API answers it: exact, or a lower bound (the count stopped there). */
export interface ListTotal {
  total: number;
  totalIsLowerBound: boolean;
}

/**
 * Previous / numbered pages / next: every page up to 8, else first, last, a window around
 * the current page and ellipses. Previous is disabled on page 1, next on the last page, unless the
 * total is a lower bound (more match than were counted: an ellipsis after the last page counted,
 * and next stays enabled, asking for a page the API then counts to). With `noun`, the total is
 * named before the buttons: "37 orders", "1,000+ orders".
 */
export function PaginationControl({
  page,
  totalPages,
  onChange,
  total,
  noun,
}: {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  /** The list's total; its lower bound lets the pages go on past the last counted. */
  total?: ListTotal;
  /** What the total counts, to name it before the buttons. */
  noun?: { one: string; many: string };
}) {
  const more = total?.totalIsLowerBound ?? false;
  // Past a lower bound the page asked for is a page, counted or not.
  const pages = more ? Math.max(totalPages, page) : totalPages;
  if (pages <= 1 && !more) return null;
  return (
    <Group gap={4} justify="center" mt="md" component="nav" aria-label="Pagination">
      {total && noun && (
        <Text size="sm" c="dimmed" mr="sm" data-testid="pagination-total">
          {describeTotal(total.total, more, noun)}
        </Text>
      )}
      <Button variant="default" size="xs" disabled={page <= 1} onClick={() => onChange(page - 1)}>
        Previous
      </Button>
      {paginationWindow(page, pages).map((item) =>
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
        disabled={page >= pages && !more}
        onClick={() => onChange(page + 1)}
      >
        Next
      </Button>
    </Group>
  );
}
