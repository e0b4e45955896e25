import { Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import type { Product } from '../api/get-products';

export interface ProductActionHandlers {
  onEdit: (p: Product) => void;
  onOffer: (p: Product) => void;
  onOutOfStock: (p: Product) => void;
  onInStock: (p: Product) => void;
  onDelete?: (p: Product) => void;
}

/** Edit and offer for all; stock by state; delete only when a handler is given (admins). */
export function ProductActions({
  product,
  handlers,
  oneLine = false,
}: {
  product: Product;
  handlers: ProductActionHandlers;
  /** In a table row the actions stay on one line; on a card they may wrap. */
  oneLine?: boolean;
}) {
  const inStock = product.productQuantity > 0;
  return (
    <Group gap={4} wrap={oneLine ? 'nowrap' : 'wrap'}>
      <Button size="compact-xs" variant="light" onClick={() => handlers.onEdit(product)}>
        Edit
      </Button>
      <Button
        size="compact-xs"
        variant="light"
        color="orange"
        onClick={() => handlers.onOffer(product)}
      >
        Offer
      </Button>
      {inStock ? (
        <Button
          size="compact-xs"
          variant="light"
          color="gray"
          onClick={() => handlers.onOutOfStock(product)}
        >
          Mark out of stock
        </Button>
      ) : (
        <Button
          size="compact-xs"
          variant="light"
          color="teal"
          onClick={() => handlers.onInStock(product)}
        >
          Mark in stock
        </Button>
      )}
      <Button
        size="compact-xs"
        variant="light"
        color="grape"
        component={Link}
        to={paths.productStock(product._id)}
        aria-label={`Stock history of ${product.productName}`}
      >
        Stock
      </Button>
      <Button
        size="compact-xs"
        variant="light"
        color="teal"
        component={Link}
        to={paths.productBatches(product._id)}
        aria-label={`Batches of ${product.productName}`}
      >
        Batches
      </Button>
      {handlers.onDelete && (
        <Button
          size="compact-xs"
          variant="light"
          color="red"
          onClick={() => handlers.onDelete!(product)}
        >
          Delete
        </Button>
      )}
    </Group>
  );
}
