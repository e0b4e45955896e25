/**
 * The shop most e2e suites start from: the admin, one staff member, a category and a product in
 * stock, made through the public API as the back office would. Small typed factories add more.
 */
import { createStaff, registerCustomer, signInAdmin, type Session } from './identity';
import {
  createCategory,
  createProduct,
  type CategoryBody,
  type ProductBody,
  type ProductFields,
} from './factories';
import type { TestApp } from './test-app';

/** What a product of the shop world may set: the product form's fields, typed. */
export interface ProductOptions {
  /** Units in stock (the form's productQuantity). */
  quantity?: number;
  price?: number;
  name?: string;
  /** Any other field of the product form, as the back office sends it. */
  fields?: ProductFields;
}

export interface ShopWorldOptions {
  /** The staff member's details (a unique e-mail unless told). */
  staff?: Parameters<typeof createStaff>[2];
  /** The first product: 10,000 units at KES 100 unless told. */
  product?: ProductOptions;
  /** Also register a customer (signed in). */
  customer?: boolean;
}

export interface ShopWorld {
  admin: Session;
  staff: Session & { password: string };
  category: CategoryBody;
  product: ProductBody;
  /** The first product's id. */
  productId: string;
  /** Set when asked for with `customer: true`. */
  customer?: Session & { password: string };
  /** Another product in the world's category (or `category`), created by its staff member. */
  createProduct(options?: ProductOptions & { category?: string }): Promise<ProductBody>;
  /** Another signed-in customer. */
  createCustomer(): Promise<Session & { password: string }>;
}

function productForm(options: ProductOptions): ProductFields {
  const fields: ProductFields = { ...options.fields };
  if (options.quantity !== undefined) fields.productQuantity = options.quantity;
  if (options.price !== undefined) fields.price = options.price;
  if (options.name !== undefined) fields.productName = options.name;
  return fields;
}

export async function createShopWorld(
  t: TestApp,
  options: ShopWorldOptions = {},
): Promise<ShopWorld> {
  const admin = await signInAdmin(t);
  const staff = await createStaff(t, admin.accessToken, options.staff);
  const category = await createCategory(t, staff.accessToken);
  const addProduct = (o: ProductOptions & { category?: string } = {}) =>
    createProduct(t, staff.accessToken, o.category ?? category._id, productForm(o));
  const product = await addProduct({ quantity: 10_000, price: 100, ...options.product });
  const customer = options.customer ? await registerCustomer(t) : undefined;
  return {
    admin,
    staff,
    category,
    product,
    productId: product._id,
    customer,
    createProduct: addProduct,
    createCustomer: () => registerCustomer(t),
  };
}
