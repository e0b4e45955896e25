import sharp from 'sharp';
import {
  createCategory,
  createProduct,
  jpegImage,
  pngImage,
  postProduct,
  productFields,
  putProduct,
  tempUploadsDir,
  type CategoryBody,
  type ProductBody,
} from './support/factories';
import { bearer, createStaff, signInAdmin, UNTHROTTLED, type Session } from './support/identity';
import { createTestApp, type TestApp } from './support/test-app';

const UNKNOWN_ID = '665f1c2b9d3e4a0012345678';

describe('products', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let fruits: CategoryBody;
  let uploads: Awaited<ReturnType<typeof tempUploadsDir>>;

  beforeAll(async () => {
    uploads = await tempUploadsDir();
    t = await createTestApp({
      name: 'catalog_products',
      env: { ...UNTHROTTLED, UPLOADS_DIR: uploads.dir },
    });
    admin = await signInAdmin(t);
    staff = await createStaff(t, admin.accessToken, { fullName: 'Grace Njeri' });
    fruits = await createCategory(t, admin.accessToken, { name: 'Fruits' });
  });
  afterAll(async () => {
    await t.close();
    await uploads.remove();
  });

  const audit = async () => {
    const res = await t.http().get('/api/audit-logs').set(bearer(admin.accessToken)).expect(200);
    return (res.body as { action: string; message: string }[]).map((e) => [e.action, e.message]);
  };
  const fieldErrors = (body: { errors?: { field: string; messages: string[] }[] }) =>
    (body.errors ?? []).map((e) => [e.field, e.messages[0]]);

  describe('create', () => {
    it('lets staff add a product; initialPrice follows price whatever is sent', async () => {
      const res = await postProduct(t, staff.accessToken, {
        productName: ' Hass Avocado Grafted Seedling ',
        productDescription: 'Grafted on a hardy rootstock',
        price: '350',
        initialPrice: '999',
        productQuantity: '40',
        category: fruits._id,
        onOffer: 'false',
        offerPrice: '',
      }).expect(201);
      expect(res.body).toEqual({
        success: true,
        message: 'Product created successfully',
        product: {
          _id: expect.stringMatching(/^[0-9a-f]{24}$/),
          // A new product has no batches yet (bookable batches, issue 32).
          batches: [],
          productName: 'Hass Avocado Grafted Seedling',
          productDescription: 'Grafted on a hardy rootstock',
          price: 350,
          initialPrice: 350,
          offerPrice: 0,
          onOffer: false,
          effectivePrice: 350,
          productQuantity: 40,
          // Issue 29: sold as its single seedling alone, at the product's price.
          units: [
            {
              _id: res.body.product._id,
              name: 'Single seedling',
              seedlings: 1,
              price: 350,
              offerPrice: 0,
              sku: '',
              minQuantity: 1,
              step: 1,
              tiers: [],
            },
          ],
          fromPrice: 350,
          category: { _id: fruits._id, name: 'Fruits' },
          productImage: '',
          productImages: {},
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      });
      expect(await audit()).toContainEqual([
        'product.create',
        'Grace Njeri created product "Hass Avocado Grafted Seedling" in Fruits at KES 350, 40 in stock',
      ]);
    });

    it('creates a product on offer, whose effective price is the offer price', async () => {
      const product = await createProduct(t, admin.accessToken, fruits._id, {
        price: 1200,
        onOffer: 'true',
        offerPrice: '999',
      });
      expect(product).toMatchObject({
        price: 1200,
        onOffer: true,
        offerPrice: 999,
        effectivePrice: 999,
      });
    });

    it('answers an empty form with every field problem, in the spec words', async () => {
      const res = await postProduct(t, admin.accessToken, { onOffer: 'true' }).expect(400);
      expect(res.body.message).toBe('Product Name is required');
      expect(fieldErrors(res.body)).toEqual([
        ['productName', 'Product Name is required'],
        ['productDescription', 'Description is required'],
        ['price', 'Price is required'],
        ['productQuantity', 'Quantity is required'],
        ['category', 'Category is required'],
        ['offerPrice', 'Offer Price is required'],
      ]);
    });

    it.each([
      [{ price: 'abc' }, 'price', 'Price must be a number'],
      [{ price: '12.5' }, 'price', 'Price must be a whole number of shillings'],
      [{ price: '0' }, 'price', 'Price must be more than 0'],
      [{ price: '-20' }, 'price', 'Price must be more than 0'],
      [{ price: '10000001' }, 'price', 'Price must be at most KES 10,000,000'],
      [{ productQuantity: 'ten' }, 'productQuantity', 'Quantity must be a number'],
      [{ productQuantity: '-1' }, 'productQuantity', 'Quantity cannot be negative'],
      [{ productQuantity: '2.5' }, 'productQuantity', 'Quantity must be a whole number'],
      [{ category: 'fruits' }, 'category', 'Category is not a valid id'],
      [{ onOffer: 'yes' }, 'onOffer', 'onOffer must be true or false'],
      [{ onOffer: 'true', offerPrice: 'cheap' }, 'offerPrice', 'Offer Price must be a number'],
      [{ onOffer: 'true', offerPrice: '0' }, 'offerPrice', 'Offer Price must be more than 0'],
      [
        { onOffer: 'true', offerPrice: '350' },
        'offerPrice',
        'Offer Price must be less than the price',
      ],
      [
        { onOffer: 'true', offerPrice: '400' },
        'offerPrice',
        'Offer Price must be less than the price',
      ],
      [
        { productName: 'x'.repeat(121) },
        'productName',
        'Product Name must be at most 120 characters',
      ],
    ])('refuses %j: %s "%s"', async (change, field, message) => {
      const res = await postProduct(
        t,
        admin.accessToken,
        productFields(fruits._id, change as Record<string, string>),
      ).expect(400);
      expect(res.body).toMatchObject({ success: false, statusCode: 400, message });
      expect(fieldErrors(res.body)).toEqual([[field, message]]);
    });

    it('ignores the offer price of a product that is not on offer', async () => {
      const product = await createProduct(t, admin.accessToken, fruits._id, {
        onOffer: 'false',
        offerPrice: '5000',
      });
      expect(product).toMatchObject({ onOffer: false, offerPrice: 0, effectivePrice: 350 });
    });

    it('refuses a field the form does not have', async () => {
      const res = await postProduct(
        t,
        admin.accessToken,
        productFields(fruits._id, { rating: '5' }),
      ).expect(400);
      expect(res.body.message).toBe('property rating should not exist');
    });

    it('refuses a category that does not exist', async () => {
      const res = await postProduct(t, admin.accessToken, productFields(UNKNOWN_ID)).expect(400);
      expect(res.body.message).toBe('Category not found');
    });

    it('wants multipart/form-data', async () => {
      const res = await t
        .http()
        .post('/api/products')
        .set(bearer(admin.accessToken))
        .send(productFields(fruits._id))
        .expect(415);
      expect(res.body.message).toBe('Send this form as multipart/form-data');
    });

    it('refuses a file sent under another field name', async () => {
      const res = await postProduct(t, admin.accessToken, productFields(fruits._id), {
        buffer: await pngImage(),
        filename: 'a.png',
        field: 'picture',
      }).expect(400);
      expect(res.body.message).toBe(
        'Unexpected file field "picture": send the image as productImage',
      );
    });
  });

  describe('images', () => {
    const productCount = async () =>
      (await t.http().get('/api/products?limit=1').expect(200)).body.totalProducts as number;

    it('stores an uploaded PNG as WebP in three widths, served with immutable cache headers', async () => {
      const product = await createProduct(
        t,
        staff.accessToken,
        fruits._id,
        {},
        {
          buffer: await pngImage(1600, 1200),
          filename: 'avocado.png',
          contentType: 'image/png',
        },
      );
      const base = `/api/uploads/products/${product._id}/`;
      expect(product.productImage).toMatch(new RegExp(`^${base}[0-9a-f]{16}-640\\.webp$`));
      expect(Object.keys(product.productImages).sort()).toEqual(['1024', '320', '640']);
      expect(product.productImages['640']).toBe(product.productImage);

      for (const [width, url] of Object.entries(product.productImages)) {
        const res = await t.http().get(url).buffer(true).expect(200);
        expect(res.headers['content-type']).toBe('image/webp');
        expect(res.headers['cache-control']).toContain('immutable');
        const meta = await sharp(res.body as Buffer).metadata();
        expect(meta).toMatchObject({ format: 'webp', width: Number(width) });
      }
    });

    it('accepts a JPEG and never enlarges a small one', async () => {
      const product = await createProduct(
        t,
        admin.accessToken,
        fruits._id,
        {},
        {
          buffer: await jpegImage(500, 400),
          filename: 'mango.jpg',
          contentType: 'image/jpeg',
        },
      );
      const res = await t.http().get(product.productImages['1024']!).buffer(true).expect(200);
      expect((await sharp(res.body as Buffer).metadata()).width).toBe(500);
    });

    it('refuses a text file named .png with 415, creating nothing', async () => {
      const before = await productCount();
      const res = await postProduct(t, admin.accessToken, productFields(fruits._id), {
        buffer: Buffer.from('just some text, not a picture'),
        filename: 'seedling.png',
        contentType: 'image/png',
      }).expect(415);
      expect(res.body).toEqual({
        success: false,
        statusCode: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Only JPEG, PNG or WebP images are accepted',
      });
      expect(await productCount()).toBe(before);
    });

    it('refuses an image over 5 MB with 413, creating nothing', async () => {
      const before = await productCount();
      const png = await pngImage(10, 10);
      const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1 - png.length)]);
      const res = await postProduct(t, admin.accessToken, productFields(fruits._id), {
        buffer: big,
        filename: 'huge.png',
        contentType: 'image/png',
      }).expect(413);
      expect(res.body.message).toBe('Images must be at most 5 MB');
      expect(await productCount()).toBe(before);
    });

    it('replaces the image on update and removes the old files', async () => {
      const product = await createProduct(
        t,
        admin.accessToken,
        fruits._id,
        {},
        {
          buffer: await pngImage(700, 700, '#2e7d32'),
          filename: 'old.png',
        },
      );
      const res = await putProduct(
        t,
        staff.accessToken,
        product._id,
        {},
        {
          buffer: await pngImage(700, 700, '#fdd835'),
          filename: 'new.png',
        },
      ).expect(200);
      const updated = res.body.product as ProductBody;
      expect(updated.productImage).not.toBe(product.productImage);
      await t.http().get(updated.productImage).expect(200);
      for (const url of Object.values(product.productImages)) await t.http().get(url).expect(404);
      expect(await audit()).toContainEqual([
        'product.update',
        `Grace Njeri updated product "${product.productName}" (image)`,
      ]);
    });

    it('keeps the product and its image when a new image is refused', async () => {
      const product = await createProduct(
        t,
        admin.accessToken,
        fruits._id,
        {},
        {
          buffer: await pngImage(),
          filename: 'ok.png',
        },
      );
      await putProduct(
        t,
        admin.accessToken,
        product._id,
        { price: '999' },
        {
          buffer: Buffer.from('%PDF-1.7 not an image'),
          filename: 'doc.png',
        },
      ).expect(415);
      const read = await t.http().get(`/api/products/${product._id}`).expect(200);
      expect(read.body.product).toMatchObject({ price: 350, productImage: product.productImage });
      await t.http().get(product.productImage).expect(200);
    });

    it('deletes the image files with the product', async () => {
      const product = await createProduct(
        t,
        admin.accessToken,
        fruits._id,
        {},
        {
          buffer: await pngImage(),
          filename: 'gone.png',
        },
      );
      await t
        .http()
        .delete(`/api/products/delete/${product._id}`)
        .set(bearer(admin.accessToken))
        .expect(200);
      for (const url of Object.values(product.productImages)) await t.http().get(url).expect(404);
    });
  });

  describe('read', () => {
    it('answers one product with its category, and nothing internal', async () => {
      const product = await createProduct(t, admin.accessToken, fruits._id);
      const res = await t.http().get(`/api/products/${product._id}`).expect(200);
      expect(res.body).toEqual({ success: true, message: 'Product retrieved', product });
      for (const hidden of ['searchText', 'imageKeys', 'reservations', 'restockedFor', '__v']) {
        expect(res.body.product).not.toHaveProperty(hidden);
      }
    });

    it('answers 400 for a malformed id and 404 for an unknown one', async () => {
      const malformed = await t.http().get('/api/products/12345').expect(400);
      expect(malformed.body.message).toBe('"12345" is not a valid id');
      const unknown = await t.http().get(`/api/products/${UNKNOWN_ID}`).expect(404);
      expect(unknown.body).toEqual({
        success: false,
        statusCode: 404,
        code: 'NOT_FOUND',
        message: 'No product with this id',
      });
    });
  });

  describe('update', () => {
    it('replaces the fields sent and keeps the others', async () => {
      const vegetables = await createCategory(t, admin.accessToken, { name: 'Vegetables' });
      const product = await createProduct(t, admin.accessToken, fruits._id, {
        productName: 'Tree Tomato',
        productQuantity: 12,
      });
      const res = await putProduct(t, staff.accessToken, product._id, {
        productName: 'Tree Tomato (Tamarillo)',
        price: '420',
        initialPrice: '1',
        category: vegetables._id,
      }).expect(200);
      expect(res.body).toMatchObject({
        success: true,
        message: 'Product updated successfully',
        product: {
          _id: product._id,
          productName: 'Tree Tomato (Tamarillo)',
          productDescription: product.productDescription,
          price: 420,
          initialPrice: 420,
          effectivePrice: 420,
          productQuantity: 12,
          category: { _id: vegetables._id, name: 'Vegetables' },
        },
      });
      expect(await audit()).toContainEqual([
        'product.update',
        'Grace Njeri updated product "Tree Tomato (Tamarillo)" (name, price, category)',
      ]);
    });

    it('accepts the whole form again, as the back office sends it', async () => {
      const product = await createProduct(t, admin.accessToken, fruits._id);
      const res = await putProduct(t, admin.accessToken, product._id, {
        ...productFields(fruits._id, { productName: product.productName, productQuantity: 7 }),
        productImage: product.productImage,
      }).expect(200);
      expect(res.body.product).toMatchObject({ productQuantity: 7, price: 350 });
    });

    it('puts on and takes off an offer, keeping the effective price in step', async () => {
      const product = await createProduct(t, admin.accessToken, fruits._id, { price: 500 });
      const on = await putProduct(t, admin.accessToken, product._id, {
        onOffer: 'true',
        offerPrice: '450',
      }).expect(200);
      expect(on.body.product).toMatchObject({
        onOffer: true,
        offerPrice: 450,
        effectivePrice: 450,
      });

      const cheaper = await putProduct(t, admin.accessToken, product._id, {
        offerPrice: '400',
      }).expect(200);
      expect(cheaper.body.product).toMatchObject({ onOffer: true, effectivePrice: 400 });

      const off = await putProduct(t, admin.accessToken, product._id, {
        onOffer: 'false',
        offerPrice: '400',
      }).expect(200);
      expect(off.body.product).toMatchObject({
        onOffer: false,
        offerPrice: 0,
        effectivePrice: 500,
      });
    });

    it('refuses a price at or below the current offer, naming the price', async () => {
      const product = await createProduct(t, admin.accessToken, fruits._id, {
        price: 300,
        onOffer: 'true',
        offerPrice: 250,
      });
      const res = await putProduct(t, admin.accessToken, product._id, { price: '250' }).expect(400);
      expect(res.body.message).toBe('Offer Price must be less than the price (KES 250)');
      const onlyFlag = await createProduct(t, admin.accessToken, fruits._id);
      const flag = await putProduct(t, admin.accessToken, onlyFlag._id, {
        onOffer: 'true',
      }).expect(400);
      expect(flag.body.message).toBe('Offer Price is required');
    });

    it('validates what is sent, and answers 400/404 for bad and unknown ids', async () => {
      const product = await createProduct(t, admin.accessToken, fruits._id);
      const empty = await putProduct(t, admin.accessToken, product._id, {
        productName: '',
        price: 'abc',
      }).expect(400);
      expect(fieldErrors(empty.body)).toEqual([
        ['productName', 'Product Name is required'],
        ['price', 'Price must be a number'],
      ]);
      const unknownCategory = await putProduct(t, admin.accessToken, product._id, {
        category: UNKNOWN_ID,
      }).expect(400);
      expect(unknownCategory.body.message).toBe('Category not found');
      await putProduct(t, admin.accessToken, 'nope', { price: '1' }).expect(400);
      const unknown = await putProduct(t, admin.accessToken, UNKNOWN_ID, { price: '1' }).expect(
        404,
      );
      expect(unknown.body.message).toBe('No product with this id');
    });
  });

  describe('stock and offers', () => {
    it('marks a product out of stock, then in stock again', async () => {
      const product = await createProduct(t, staff.accessToken, fruits._id, {
        productName: 'Pixie Tangerine',
        productQuantity: 9,
      });
      const out = await t
        .http()
        .patch(`/api/products/check-stock/${product._id}`)
        .set(bearer(staff.accessToken))
        .expect(200);
      expect(out.body).toMatchObject({
        success: true,
        message: 'Product marked out of stock',
        product: { _id: product._id, productQuantity: 0 },
      });
      const back = await t
        .http()
        .patch(`/api/products/update-stock/${product._id}`)
        .set(bearer(staff.accessToken))
        .send({ productQuantity: 25 })
        .expect(200);
      expect(back.body).toMatchObject({
        message: 'Product stock updated',
        product: { productQuantity: 25 },
      });
      const actions = await audit();
      expect(actions).toContainEqual([
        'product.stock.out',
        'Grace Njeri marked "Pixie Tangerine" out of stock',
      ]);
      expect(actions).toContainEqual([
        'product.stock.in',
        'Grace Njeri set the stock of "Pixie Tangerine" to 25',
      ]);
    });

    it.each([
      [{}, 'Quantity is required'],
      [{ productQuantity: 0 }, 'Quantity must be more than 0'],
      [{ productQuantity: 'many' }, 'Quantity must be a number'],
      [{ productQuantity: 1.5 }, 'Quantity must be a whole number'],
      [{ productQuantity: 5, price: 1 }, 'property price should not exist'],
    ])('refuses the stock update %j: "%s"', async (body, message) => {
      const product = await createProduct(t, admin.accessToken, fruits._id);
      const res = await t
        .http()
        .patch(`/api/products/update-stock/${product._id}`)
        .set(bearer(admin.accessToken))
        .send(body)
        .expect(400);
      expect(res.body.message).toBe(message);
    });

    it('applies an offer below the price', async () => {
      const product = await createProduct(t, staff.accessToken, fruits._id, {
        productName: 'Kent Mango',
        price: 600,
      });
      const res = await t
        .http()
        .patch(`/api/products/apply-offer/${product._id}`)
        .set(bearer(staff.accessToken))
        .send({ offerPrice: 480 })
        .expect(200);
      expect(res.body).toMatchObject({
        success: true,
        message: 'Offer applied successfully',
        product: { onOffer: true, offerPrice: 480, effectivePrice: 480, price: 600 },
      });
      expect(await audit()).toContainEqual([
        'product.offer',
        'Grace Njeri put "Kent Mango" on offer at KES 480 (price KES 600)',
      ]);
    });

    it.each([
      [{}, 400, 'offerPrice is required'],
      [{ offerPrice: 'half' }, 400, 'Offer Price must be a number'],
      [{ offerPrice: 0 }, 400, 'Offer Price must be more than 0'],
      [{ offerPrice: 350 }, 400, 'Offer Price must be less than the price (KES 350)'],
      [{ offerPrice: 2000 }, 400, 'Offer Price must be less than the price (KES 350)'],
    ])('refuses the offer %j with %d "%s"', async (body, status, message) => {
      const product = await createProduct(t, admin.accessToken, fruits._id);
      const res = await t
        .http()
        .patch(`/api/products/apply-offer/${product._id}`)
        .set(bearer(admin.accessToken))
        .send(body)
        .expect(status);
      expect(res.body.message).toBe(message);
      const read = await t.http().get(`/api/products/${product._id}`).expect(200);
      expect(read.body.product).toMatchObject({ onOffer: false, effectivePrice: 350 });
    });

    it('answers 404 for stock and offers on an unknown product', async () => {
      for (const [path, body] of [
        [`check-stock/${UNKNOWN_ID}`, undefined],
        [`update-stock/${UNKNOWN_ID}`, { productQuantity: 3 }],
        [`apply-offer/${UNKNOWN_ID}`, { offerPrice: 3 }],
      ] as const) {
        const res = await t
          .http()
          .patch(`/api/products/${path}`)
          .set(bearer(admin.accessToken))
          .send(body)
          .expect(404);
        expect(res.body.message).toBe('No product with this id');
      }
    });
  });

  describe('delete', () => {
    it('lets admin delete a product, which is then gone', async () => {
      const product = await createProduct(t, staff.accessToken, fruits._id, {
        productName: 'Anna Apple',
      });
      const res = await t
        .http()
        .delete(`/api/products/delete/${product._id}`)
        .set(bearer(admin.accessToken))
        .expect(200);
      expect(res.body).toMatchObject({
        success: true,
        message: 'Product deleted successfully',
        product: { _id: product._id, productName: 'Anna Apple' },
      });
      await t.http().get(`/api/products/${product._id}`).expect(404);
      const again = await t
        .http()
        .delete(`/api/products/delete/${product._id}`)
        .set(bearer(admin.accessToken))
        .expect(404);
      expect(again.body.message).toBe('No product with this id');
      expect(await audit()).toContainEqual([
        'product.delete',
        'Shop Admin deleted product "Anna Apple"',
      ]);
    });
  });
});
