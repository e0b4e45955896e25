import type { components } from '@spc/shared-contracts';

type S = components['schemas'];
export type User = S['UserDto'];
export type Product = S['ProductDto'];
export type Category = S['CategoryDto'];
export type Order = S['OrderDto'];
export type PlacedOrder = S['PlacedOrderDto'];
