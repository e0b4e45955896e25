import { createCategory } from './support/factories';
import { signInAdmin, UNTHROTTLED } from './support/identity';
import { createTestApp, type TestApp } from './support/test-app';

/** The category list a screen pages through: `search` narrows it, `page` and `limit` cut it. */
describe('categories: search and pages', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ name: 'category_search', env: UNTHROTTLED });
    const admin = await signInAdmin(t);
    for (const [name, description] of [
      ['Avocado', 'Grafted Hass and Fuerte'],
      ['Mango', 'Apple mango and Ngowe, grafted'],
      ['Herbs and spices', 'Rosemary, basil, mint'],
      ['Flowers', 'Marigold and roses'],
      ['Forestry', 'Grevillea, cypress (1+1) transplants'],
    ])
      await createCategory(t, admin.accessToken, { name, description });
  });
  afterAll(() => t.close());

  const names = (body: { categories: { name: string }[] }) => body.categories.map((c) => c.name);

  it('matches the name or the description, in any case, and counts only the matches', async () => {
    const res = await t.http().get('/api/categories?search=GRAFTED').expect(200);
    expect(names(res.body)).toEqual(['Avocado', 'Mango']);
    expect(res.body).toMatchObject({ totalCategories: 2, totalPages: 1, page: 1 });
    const byName = await t.http().get('/api/categories?search=herbs').expect(200);
    expect(names(byName.body)).toEqual(['Herbs and spices']);
  });

  it('pages through the matches with page and limit', async () => {
    const first = await t.http().get('/api/categories?search=o&limit=2&page=1').expect(200);
    const second = await t.http().get('/api/categories?search=o&limit=2&page=2').expect(200);
    const third = await t.http().get('/api/categories?search=o&limit=2&page=3').expect(200);
    expect(first.body).toMatchObject({ totalCategories: 5, totalPages: 3, page: 1 });
    expect([...names(first.body), ...names(second.body), ...names(third.body)]).toEqual([
      'Avocado',
      'Flowers',
      'Forestry',
      'Herbs and spices',
      'Mango',
    ]);
  });

  it('takes the text literally: regular-expression characters match themselves', async () => {
    const plus = await t.http().get('/api/categories?search=(1%2B1)').expect(200);
    expect(names(plus.body)).toEqual(['Forestry']);
    const dot = await t.http().get('/api/categories?search=.*').expect(200);
    expect(names(dot.body)).toEqual([]);
    expect(dot.body).toMatchObject({ totalCategories: 0, totalPages: 0 });
  });

  it('treats a blank search as none, and refuses a search that is too long', async () => {
    const blank = await t.http().get('/api/categories?search=%20%20').expect(200);
    expect(blank.body.totalCategories).toBe(5);
    const long = await t
      .http()
      .get(`/api/categories?search=${'a'.repeat(500)}`)
      .expect(400);
    expect(long.body.message).toMatch(/^search must be at most \d+ characters$/);
    const twice = await t.http().get('/api/categories?search=a&search=b').expect(400);
    expect(twice.body.message).toBe('search must be text');
  });
});
