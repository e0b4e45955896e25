import { Badge, Card, Group, Image, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { formatMoney } from '@spc/shared-contracts';
import { assetUrl } from '../../../lib/api-client';
import type { Product } from '../api/get-products';
import { ProductActions, type ProductActionHandlers } from './product-actions';

export const OUT_OF_STOCK = 'Out of Stock';

/** Quantity, or 'Out of Stock' at 0 or less. */
export function StockLabel({ quantity }: { quantity: number }) {
  return quantity <= 0 ? (
    // Never squeezed by a narrow column, and in the spec's words and case: "Out of Stock".
    <Badge
      color="red"
      variant="light"
      tt="none"
      miw="max-content"
      styles={{ label: { overflow: 'visible' } }}
    >
      {OUT_OF_STOCK}
    </Badge>
  ) : (
    <>{quantity}</>
  );
}

function OfferPrice({ product }: { product: Product }) {
  return product.onOffer ? <>{formatMoney(product.offerPrice, 'KSH')}</> : <>—</>;
}

export function ProductsTable({
  products,
  handlers,
}: {
  products: Product[];
  handlers: ProductActionHandlers;
}) {
  return (
    // Fits the page beside the sidebar at 1280 px: name and description wrap; prices, stock and
    // the actions stay on one line each.
    <Table.ScrollContainer minWidth={900}>
      <Table striped verticalSpacing="xs" horizontalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Image</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Category</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th>Price</Table.Th>
            <Table.Th>Offer Price</Table.Th>
            <Table.Th>Quantity</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {products.map((p) => (
            <Table.Tr key={p._id}>
              <Table.Td>
                <Image
                  src={assetUrl(p.productImage)}
                  alt={p.productName}
                  w={48}
                  h={48}
                  radius="sm"
                  fit="cover"
                  loading="lazy"
                />
              </Table.Td>
              <Table.Td fw={500}>{p.productName}</Table.Td>
              <Table.Td>{p.category?.name}</Table.Td>
              <Table.Td miw={120} maw={280}>
                <Text size="sm" lineClamp={2}>
                  {p.productDescription}
                </Text>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatMoney(p.price, 'KSH')}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <OfferPrice product={p} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <StockLabel quantity={p.productQuantity} />
              </Table.Td>
              <Table.Td>
                <ProductActions product={p} handlers={handlers} oneLine />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function ProductCards({
  products,
  handlers,
}: {
  products: Product[];
  handlers: ProductActionHandlers;
}) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }}>
      {products.map((p) => (
        <Card key={p._id} withBorder>
          <Card.Section>
            <Image
              src={assetUrl(p.productImage)}
              alt={p.productName}
              h={140}
              fit="cover"
              loading="lazy"
            />
          </Card.Section>
          <Stack gap={4} mt="sm">
            <Text fw={600}>{p.productName}</Text>
            <Text size="sm" c="dimmed">
              {p.category?.name}
            </Text>
            <Group gap="xs">
              <Text size="sm" td={p.onOffer ? 'line-through' : undefined}>
                {formatMoney(p.price, 'KSH')}
              </Text>
              {p.onOffer && (
                <Text size="sm" c="orange" fw={600}>
                  {formatMoney(p.offerPrice, 'KSH')}
                </Text>
              )}
            </Group>
            <Text size="sm">
              Quantity: <StockLabel quantity={p.productQuantity} />
            </Text>
            <ProductActions product={p} handlers={handlers} />
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}
