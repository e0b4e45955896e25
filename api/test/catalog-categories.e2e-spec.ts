import {
  createCategory,
  createProduct,
  tempUploadsDir,
  type CategoryBody,
} from './support/factories';
import { bearer, createStaff, signInAdmin, UNTHROTTLED, type Session } from './support/identity';
import { createTestApp, type TestApp } from './support/test-app';

describe('categories', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let uploads: Awaited<ReturnType<typeof tempUploadsDir>>;

  beforeAll(async () => {
    uploads = await tempUploadsDir();
    t = await createTestApp({
      name: 'catalog_categories',
      env: { ...UNTHROTTLED, UPLOADS_DIR: uploads.dir },
    });
    admin = await signInAdmin(t);
    staff = await createStaff(t, admin.accessToken);
  });
  afterAll(async () => {
    await t.close();
    await uploads.remove();
  });

  const auditActions = async () => {
    const res = await t.http().get('/api/audit-logs').set(bearer(admin.accessToken)).expect(200);
    return (res.body as { action: string; message: string }[]).map((e) => [e.action, e.message]);
  };

  it('answers an empty list before any category exists', async () => {
    const res = await t.http().get('/api/categories').expect(200);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Categories retrieved',
      categories: [],
      totalCategories: 0,
      totalPages: 0,
    });
  });

  it('lets staff create a category, answered with its fields and a zero product count', async () => {
    const res = await t
      .http()
      .post('/api/categories')
      .set(bearer(staff.accessToken))
      .send({ name: '  Vegetables ', description: 'Seedlings in trays' })
      .expect(201);
    expect(res.body).toEqual({
      success: true,
      message: 'Category created successfully',
      category: {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        name: 'Vegetables',
        description: 'Seedlings in trays',
        productCount: 0,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    expect(res.body.category).not.toHaveProperty('nameKey');
    expect(await auditActions()).toContainEqual([
      'category.create',
      'Peter Mwangi created category "Vegetables"',
    ]);
  });

  it('refuses a second category with the same name in any case', async () => {
    for (const name of ['vegetables', 'VEGETABLES', ' Vegetables  ']) {
      const res = await t
        .http()
        .post('/api/categories')
        .set(bearer(admin.accessToken))
        .send({ name, description: 'Again' })
        .expect(409);
      expect(res.body).toEqual({
        success: false,
        message: 'A category with this name already exists',
        statusCode: 409,
        code: 'CONFLICT',
      });
    }
  });

  it('validates the category form with the spec messages', async () => {
    const res = await t
      .http()
      .post('/api/categories')
      .set(bearer(admin.accessToken))
      .send({ name: ' ', description: '' })
      .expect(400);
    expect(res.body).toMatchObject({ message: 'Category is required', statusCode: 400 });
    expect(res.body.errors).toEqual([
      { field: 'name', messages: ['Category is required'] },
      { field: 'description', messages: ['Description is required'] },
    ]);

    const missing = await t
      .http()
      .post('/api/categories')
      .set(bearer(admin.accessToken))
      .send({ name: 'Herbs' })
      .expect(400);
    expect(missing.body.message).toBe('Description is required');

    const operator = await t
      .http()
      .post('/api/categories')
      .set(bearer(admin.accessToken))
      .send({ name: { $ne: null }, description: 'x' })
      .expect(400);
    expect(operator.body.message).toBe('Category is required');

    const unknown = await t
      .http()
      .post('/api/categories')
      .set(bearer(admin.accessToken))
      .send({ name: 'Herbs', description: 'x', productCount: 9 })
      .expect(400);
    expect(unknown.body.message).toBe('property productCount should not exist');

    const long = await t
      .http()
      .post('/api/categories')
      .set(bearer(admin.accessToken))
      .send({ name: 'x'.repeat(61), description: 'x' })
      .expect(400);
    expect(long.body.message).toBe('Category name must be at most 60 characters');
  });

  it('lists categories by name, case aside, each with its product count', async () => {
    const fruits = await createCategory(t, admin.accessToken, { name: 'fruits' });
    const avocados = await createCategory(t, admin.accessToken, { name: 'Avocados' });
    await createProduct(t, admin.accessToken, fruits._id);
    await createProduct(t, admin.accessToken, fruits._id);
    await createProduct(t, admin.accessToken, avocados._id);

    const res = await t.http().get('/api/categories').expect(200);
    const rows = (res.body.categories as CategoryBody[]).map((c) => [c.name, c.productCount]);
    expect(rows).toEqual([
      ['Avocados', 1],
      ['fruits', 2],
      ['Vegetables', 0],
    ]);
    expect(res.body).toMatchObject({ totalCategories: 3, totalPages: 1, page: 1 });

    const paged = await t.http().get('/api/categories?page=2&limit=2').expect(200);
    expect(paged.body.categories.map((c: CategoryBody) => c.name)).toEqual(['Vegetables']);
    expect(paged.body).toMatchObject({ totalCategories: 3, totalPages: 2, page: 2 });
  });

  it('reads one category, answering 400 for a malformed id and 404 for an unknown one', async () => {
    const fruits = await createCategory(t, admin.accessToken);
    const res = await t.http().get(`/api/categories/${fruits._id}`).expect(200);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Category retrieved',
      category: { _id: fruits._id, name: fruits.name, productCount: 0 },
    });

    const malformed = await t.http().get('/api/categories/not-an-id').expect(400);
    expect(malformed.body.message).toBe('"not-an-id" is not a valid id');
    const unknown = await t.http().get('/api/categories/665f1c2b9d3e4a0012345678').expect(404);
    expect(unknown.body).toEqual({
      success: false,
      message: 'No category with this id',
      statusCode: 404,
      code: 'NOT_FOUND',
    });
  });

  it('updates a category and the products show its new name', async () => {
    const category = await createCategory(t, staff.accessToken, { name: 'Flowrs' });
    const product = await createProduct(t, staff.accessToken, category._id);

    const res = await t
      .http()
      .put(`/api/categories/update/${category._id}`)
      .set(bearer(staff.accessToken))
      .send({ name: 'Flowers', description: 'Bedding plants and shrubs' })
      .expect(200);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Category updated successfully',
      category: {
        _id: category._id,
        name: 'Flowers',
        description: 'Bedding plants and shrubs',
        productCount: 1,
      },
    });
    const read = await t.http().get(`/api/products/${product._id}`).expect(200);
    expect(read.body.product.category).toEqual({ _id: category._id, name: 'Flowers' });

    // Only the description: the name stays.
    const partly = await t
      .http()
      .put(`/api/categories/update/${category._id}`)
      .set(bearer(admin.accessToken))
      .send({ description: 'Flowering shrubs' })
      .expect(200);
    expect(partly.body.category).toMatchObject({
      name: 'Flowers',
      description: 'Flowering shrubs',
    });

    // Nothing sent: nothing changes.
    const nothing = await t
      .http()
      .put(`/api/categories/update/${category._id}`)
      .set(bearer(admin.accessToken))
      .send({})
      .expect(200);
    expect(nothing.body.category).toMatchObject({
      name: 'Flowers',
      description: 'Flowering shrubs',
    });

    // Same name in another case is a rename of itself, not a clash.
    await t
      .http()
      .put(`/api/categories/update/${category._id}`)
      .set(bearer(admin.accessToken))
      .send({ name: 'FLOWERS' })
      .expect(200);
    expect(await auditActions()).toContainEqual([
      'category.update',
      'Peter Mwangi updated category "Flowers" (renamed from "Flowrs")',
    ]);
  });

  it('refuses to rename a category to a name another one has, or to nothing', async () => {
    const taken = await createCategory(t, admin.accessToken, { name: 'Forestry' });
    const other = await createCategory(t, admin.accessToken, { name: 'Trees' });
    const clash = await t
      .http()
      .put(`/api/categories/update/${other._id}`)
      .set(bearer(admin.accessToken))
      .send({ name: 'forestry' })
      .expect(409);
    expect(clash.body.message).toBe('A category with this name already exists');
    const empty = await t
      .http()
      .put(`/api/categories/update/${other._id}`)
      .set(bearer(admin.accessToken))
      .send({ name: '' })
      .expect(400);
    expect(empty.body.message).toBe('Category is required');
    const unknown = await t
      .http()
      .put('/api/categories/update/665f1c2b9d3e4a0012345678')
      .set(bearer(admin.accessToken))
      .send({ name: 'Anything' })
      .expect(404);
    expect(unknown.body.message).toBe('No category with this id');
    expect(taken.name).toBe('Forestry');
  });

  it('refuses to delete a category while it has products, then deletes it once empty', async () => {
    const category = await createCategory(t, staff.accessToken, { name: 'Herbs and spices' });
    const product = await createProduct(t, staff.accessToken, category._id);
    await createProduct(t, staff.accessToken, category._id);

    const refused = await t
      .http()
      .delete(`/api/categories/delete/${category._id}`)
      .set(bearer(staff.accessToken))
      .expect(409);
    expect(refused.body).toEqual({
      success: false,
      statusCode: 409,
      code: 'CONFLICT',
      message:
        'The category "Herbs and spices" still has 2 products; move them to another category or delete them first',
    });

    // Move one product away and delete the other: the category is empty.
    const elsewhere = await createCategory(t, admin.accessToken);
    const moved = await t
      .http()
      .put(`/api/products/update/${product._id}`)
      .set(bearer(staff.accessToken))
      .field('category', elsewhere._id)
      .expect(200);
    expect(moved.body.product.category).toEqual({ _id: elsewhere._id, name: elsewhere.name });
    const remaining = await t.http().get(`/api/products?category=${category._id}`).expect(200);
    for (const p of remaining.body.products) {
      await t
        .http()
        .delete(`/api/products/delete/${p._id}`)
        .set(bearer(admin.accessToken))
        .expect(200);
    }

    const res = await t
      .http()
      .delete(`/api/categories/delete/${category._id}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Category deleted successfully',
      category: { _id: category._id, name: 'Herbs and spices' },
    });
    await t.http().get(`/api/categories/${category._id}`).expect(404);
    await t
      .http()
      .delete(`/api/categories/delete/${category._id}`)
      .set(bearer(staff.accessToken))
      .expect(404);
    expect(await auditActions()).toContainEqual([
      'category.delete',
      'Peter Mwangi deleted category "Herbs and spices"',
    ]);
  });
});
