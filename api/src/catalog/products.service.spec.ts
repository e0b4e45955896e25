import { BadRequestException, ConflictException } from '@nestjs/common';
import { defaultUnitOf } from '@spc/shared-contracts';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import type { ImageService } from '../storage/image.service';
import type { CategoriesService } from './categories.service';
import type { ProductFields, ProductView } from './catalog.types';
import type { ProductListQueryDto } from './dto/product.dto';
import { CatalogReadModel } from './read-model/catalog-read-model';
import { CatalogueEvents } from './read-model/catalogue-events';
import type { ProductsRepository } from './products.repository';
import { ProductsService } from './products.service';
import type { TaxSettingsService } from './tax-settings.service';

const actor: Principal = { id: 'a1', role: 'staff', fullName: 'Grace Njeri' };
const ID = '665f1c2b9d3e4a0012345679';
const fields: ProductFields = {
  productName: 'Kent Mango',
  productDescription: 'Late-season mango',
  price: 600,
  offerPrice: 0,
  onOffer: false,
  productQuantity: 10,
  category: '665f1c2b9d3e4a0012345678',
  taxType: null,
  itemClassCode: null,
};
const view = (changes: Partial<ProductView> = {}): ProductView => ({
  _id: ID,
  ...fields,
  initialPrice: fields.price,
  effectivePrice: fields.price,
  units: [defaultUnitOf(fields, ID)],
  fromPrice: fields.price,
  category: { _id: fields.category, name: 'Fruits' },
  productImage: '',
  productImages: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  batches: [],
  ...changes,
});

function setup(catalogue: ProductView[] = [view()]) {
  const loads = { count: 0 };
  const products = {
    newId: jest.fn(() => ID),
    create: jest.fn(async () => view()),
    findFields: jest.fn(async () => ({ ...fields })),
    imageKeys: jest.fn(async () => ['products/x/old-320.webp', 'products/x/old-640.webp']),
    replaceFields: jest.fn(async (..._args: unknown[]): Promise<ProductView | null> => view()),
    findPage: jest.fn(async (..._args: unknown[]) => [view()]),
    countPerCategory: jest.fn(async (..._args: unknown[]) => ({ [fields.category]: 1 })),
    priceRange: jest.fn(async () => ({ min: 600, max: 600 })),
  };
  const categories = {
    assertExists: jest.fn(async () => undefined),
    list: jest.fn(async () => ({
      items: [{ _id: fields.category, name: 'Fruits', description: '', productCount: 1 }],
      total: 1,
      totalPages: 1,
      page: 1,
    })),
  };
  const images = {
    store: jest.fn(async (_: Buffer, folder: string) => ({
      url: `/api/uploads/${folder}/new-640.webp`,
      urls: {
        320: `/api/uploads/${folder}/new-320.webp`,
        640: `/api/uploads/${folder}/new-640.webp`,
      },
      keys: [`${folder}/new-320.webp`, `${folder}/new-640.webp`],
    })),
    remove: jest.fn(async () => undefined),
  };
  const audit = { record: jest.fn(async () => undefined) };
  const events = new CatalogueEvents();
  const readModel = new CatalogReadModel(
    async () => {
      loads.count += 1;
      return {
        products: catalogue.map((v) => ({
          view: v,
          searchName: v.productName.toLowerCase(),
          searchDescription: v.productDescription.toLowerCase(),
          bookable: [],
          stockSeq: 0,
        })),
        categories: [],
      };
    },
    async (counts) => (await (categories as unknown as CategoriesService).list({}, counts)).items,
    events,
  );
  const list = async (dto: ProductListQueryDto) => (await readModel.list(dto)).page;
  const taxSettings = {
    defaultTaxType: jest.fn(async (): Promise<'B' | null> => 'B'),
  };
  const service = new ProductsService(
    products as unknown as ProductsRepository,
    categories as unknown as CategoriesService,
    audit as unknown as AuditService,
    images as unknown as ImageService,
    events,
    readModel,
    taxSettings as unknown as TaxSettingsService,
  );
  return {
    service,
    list,
    readModel,
    products,
    categories,
    images,
    audit,
    catalogue,
    loads,
    taxSettings,
  };
}

describe('ProductsService', () => {
  it('stores an image under the new product id, and removes it if the product is not saved', async () => {
    const { service, products, images } = setup();
    products.create.mockRejectedValueOnce(new Error('database down'));
    await expect(service.create(actor, { ...fields }, Buffer.from('image'))).rejects.toThrow(
      'database down',
    );
    expect(images.store).toHaveBeenCalledWith(
      expect.any(Buffer),
      `products/${ID}`,
      [320, 640, 1024],
      640,
    );
    expect(images.remove).toHaveBeenCalledWith([
      `products/${ID}/new-320.webp`,
      `products/${ID}/new-640.webp`,
    ]);
  });

  it('refuses a product without a tax type when the shop has no default, storing nothing', async () => {
    const { service, taxSettings, images, products } = setup();
    taxSettings.defaultTaxType.mockResolvedValue(null);
    await expect(service.create(actor, { ...fields }, Buffer.from('x'))).rejects.toThrow(
      /no default tax type/,
    );
    await expect(service.update(actor, ID, { price: 650 })).rejects.toThrow(/no default tax type/);
    expect(images.store).not.toHaveBeenCalled();
    expect(products.create).not.toHaveBeenCalled();
    expect(products.replaceFields).not.toHaveBeenCalled();
    // Its own type needs no default.
    await service.create(actor, { ...fields, taxType: 'A' });
    expect(products.create).toHaveBeenCalledWith(
      ID,
      expect.objectContaining({ taxType: 'A', itemClassCode: null }),
      undefined,
      actor,
    );
  });

  it('checks the category before storing anything', async () => {
    const { service, categories, images, products } = setup();
    categories.assertExists.mockRejectedValueOnce(new BadRequestException('Category not found'));
    await expect(service.create(actor, { ...fields }, Buffer.from('x'))).rejects.toThrow(
      'Category not found',
    );
    expect(images.store).not.toHaveBeenCalled();
    expect(products.create).not.toHaveBeenCalled();
  });

  it('merges an update into what changed meanwhile, and re-checks the offer', async () => {
    const { service, products } = setup();
    // Someone else put the product on offer at 500 between our read and our write.
    products.findFields
      .mockResolvedValueOnce({ ...fields })
      .mockResolvedValueOnce({ ...fields, onOffer: true, offerPrice: 500 });
    products.replaceFields.mockResolvedValueOnce(null);
    await expect(service.update(actor, ID, { price: 450 })).rejects.toThrow(
      'Offer Price must be less than the price (KES 450)',
    );
    expect(products.replaceFields).toHaveBeenCalledTimes(1);
  });

  it('gives up with 409 after repeated concurrent changes, removing the new image', async () => {
    const { service, products, images } = setup();
    products.replaceFields.mockResolvedValue(null);
    await expect(service.update(actor, ID, { price: 650 }, Buffer.from('img'))).rejects.toThrow(
      ConflictException,
    );
    expect(products.replaceFields).toHaveBeenCalledTimes(3);
    expect(images.remove).toHaveBeenCalledWith([
      `products/${ID}/new-320.webp`,
      `products/${ID}/new-640.webp`,
    ]);
  });

  it('removes the old image files only once the new image is saved', async () => {
    const { service, images, products } = setup();
    await service.update(actor, ID, {}, Buffer.from('img'));
    expect(products.replaceFields).toHaveBeenCalledWith(
      ID,
      fields,
      fields,
      expect.objectContaining({
        setQuantity: false,
        image: expect.objectContaining({ imageKeys: expect.any(Array) }),
      }),
    );
    expect(images.remove).toHaveBeenCalledWith([
      'products/x/old-320.webp',
      'products/x/old-640.webp',
    ]);
  });

  it('removing the offer clears its price', async () => {
    const { service, products } = setup();
    products.findFields.mockResolvedValueOnce({ ...fields, onOffer: true, offerPrice: 500 });
    await service.update(actor, ID, { onOffer: false });
    expect(products.replaceFields.mock.calls[0]![2]).toMatchObject({
      onOffer: false,
      offerPrice: 0,
    });
  });

  it('serves a repeated list from the cache, the search normalised, until a write', async () => {
    const { service, list, loads } = setup([
      view(),
      view({
        _id: '665f1c2b9d3e4a00123456ff',
        productName: 'Grevillea',
        productDescription: 'Timber tree',
      }),
    ]);
    const query = (search: string) => ({ search }) as ProductListQueryDto;
    const first = await list(query('Kent  Mango'));
    const second = await list(query(' kent mango '));
    expect(second).toBe(first);
    expect(loads.count).toBe(1);
    expect(first).toMatchObject({
      totalProducts: 2,
      totalFilteredProducts: 1,
      totalPages: 1,
      totalsPerCategory: { [fields.category]: 1 },
    });
    expect(first.products.map((p) => p.productName)).toEqual(['Kent Mango']);
    await service.update(actor, ID, { price: 650 });
    const third = await list(query('kent mango'));
    expect(third).not.toBe(first);
    expect(loads.count).toBe(2);
  });

  it('derives every total from one pass over the catalogue', async () => {
    const other = '665f1c2b9d3e4a00123456aa';
    const fruit = (i: number, price: number) =>
      view({
        _id: `665f1c2b9d3e4a00123450${String(i).padStart(2, '0')}`,
        effectivePrice: price,
        price,
      });
    const tree = (i: number) =>
      view({
        _id: `665f1c2b9d3e4a00123451${String(i).padStart(2, '0')}`,
        category: { _id: other, name: 'Forestry' },
        effectivePrice: 100,
        price: 100,
      });
    const { list, categories } = setup([
      fruit(1, 400),
      fruit(2, 500),
      fruit(3, 450),
      fruit(4, 900),
      fruit(5, 501),
      fruit(6, 700),
      fruit(7, 800),
      tree(1),
      tree(2),
      tree(3),
      tree(4),
      tree(5),
    ]);
    categories.list.mockResolvedValueOnce({
      items: [
        { _id: fields.category, name: 'Fruits', description: '', productCount: 7 },
        { _id: other, name: 'Forestry', description: '', productCount: 5 },
      ],
      total: 2,
      totalPages: 1,
      page: 1,
    });
    const answer = await list({
      category: fields.category,
      maxPrice: 500,
      limit: 2,
      sortBy: 'price',
    } as ProductListQueryDto);
    expect(categories.list).toHaveBeenLastCalledWith({}, { [fields.category]: 7, [other]: 5 });
    expect(answer).toMatchObject({
      totalProducts: 12,
      totalFilteredProducts: 3,
      totalPages: 2,
      totalsPerCategory: { [fields.category]: 3, [other]: 5 },
      priceRange: { min: 100, max: 900 },
    });
    expect(answer.products.map((p) => p.effectivePrice)).toEqual([400, 450]);
  });

  it('pages through every order as a full sort would (ties by id, descending the reverse)', async () => {
    const catalogue = Array.from({ length: 23 }, (_, i) =>
      view({
        _id: `665f1c2b9d3e4a00123452${String((i * 7) % 23).padStart(2, '0')}`,
        effectivePrice: 100 + (i % 4) * 50,
        createdAt: `2026-01-0${1 + (i % 3)}T00:00:00.000Z`,
      }),
    );
    const { list } = setup(catalogue);
    for (const sortBy of ['price', 'createdAt'] as const) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        const key = (p: ProductView) => (sortBy === 'price' ? p.effectivePrice : p.createdAt);
        const direction = sortOrder === 'asc' ? 1 : -1;
        const expected = [...catalogue]
          .sort((a, b) =>
            key(a) !== key(b)
              ? (key(a) < key(b) ? -1 : 1) * direction
              : (a._id < b._id ? -1 : 1) * direction,
          )
          .map((p) => p._id);
        const seen: string[] = [];
        for (let page = 1; page <= 5; page++) {
          const answer = await list({
            sortBy,
            sortOrder,
            page,
            limit: 5,
          } as ProductListQueryDto);
          expect(answer.totalFilteredProducts).toBe(23);
          seen.push(...answer.products.map((p) => p._id));
        }
        expect(seen).toEqual(expected);
      }
    }
  });

  it('refuses a price filter whose minimum is above its maximum', () => {
    const { readModel } = setup();
    expect(() => readModel.list({ minPrice: 10, maxPrice: 5 } as ProductListQueryDto)).toThrow(
      'minPrice cannot be more than maxPrice',
    );
  });
});
