import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import {
  CATALOG_MESSAGES,
  effectiveTaxType,
  formatMoney,
  TAX_MESSAGES,
  VALIDATION_MESSAGES as M,
} from '@spc/shared-contracts';
import { AuditService, type AuditTargetRef } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import { ImageService } from '../storage/image.service';
import { CategoriesService } from './categories.service';
import type {
  ProductFields,
  ProductImageFields,
  ProductTaxView,
  ProductView,
} from './catalog.types';
import type { CreateProductDto, UpdateProductDto } from './dto/product.dto';
import { CatalogReadModel } from './read-model/catalog-read-model';
import { CatalogueEvents } from './read-model/catalogue-events';
import { ProductsRepository } from './products.repository';
import { readUnits } from './product-units';
import { TaxSettingsService } from './tax-settings.service';

export const PRODUCT_NOT_FOUND = 'No product with this id';
/** Image widths stored for a product (srcset), and the one `productImage` points at. */
export const PRODUCT_IMAGE_WIDTHS = [320, 640, 1024];
export const PRODUCT_IMAGE_DEFAULT_WIDTH = 640;
/** Attempts at an update whose fields another write changed in between. */
const UPDATE_ATTEMPTS = 3;

const FIELD_LABELS: Record<keyof ProductFields, string> = {
  productName: 'name',
  productDescription: 'description',
  price: 'price',
  offerPrice: 'offer price',
  onOffer: 'offer',
  productQuantity: 'stock',
  category: 'category',
  units: 'units',
  taxType: 'tax type',
  itemClassCode: 'item classification code',
};

/** Products: the forms, stock, offers and images (reads are the read model's, see CatalogReadModel). */
@Injectable()
export class ProductsService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly categories: CategoriesService,
    private readonly audit: AuditService,
    private readonly images: ImageService,
    private readonly events: CatalogueEvents,
    private readonly readModel: CatalogReadModel,
    private readonly taxSettings: TaxSettingsService,
  ) {}

  /** `GET /api/products/:id`: from the in-memory catalogue, else (new elsewhere) the database. */
  async get(id: string): Promise<ProductView> {
    return (await this.readModel.product(id)) ?? this.load(id);
  }

  /**
   * `GET /api/products/:id/tax` (staff): the product's tax type and item classification code, the
   * shop's default, and each unit's own and effective tax type.
   */
  async tax(id: string): Promise<ProductTaxView> {
    const [product, shopDefault] = await Promise.all([
      this.products.findTax(id),
      this.taxSettings.defaultTaxType(),
    ]);
    if (!product) throw new NotFoundException(PRODUCT_NOT_FOUND);
    return {
      productId: id,
      taxType: product.taxType,
      itemClassCode: product.itemClassCode,
      shopDefaultTaxType: shopDefault,
      effectiveTaxType: effectiveTaxType(null, product.taxType, shopDefault),
      units: product.units.map((unit) => ({
        _id: unit._id,
        name: unit.name,
        taxType: unit.taxType ?? null,
        effectiveTaxType: effectiveTaxType(unit.taxType, product.taxType, shopDefault),
      })),
    };
  }

  /** The product as the database has it now. */
  private async load(id: string): Promise<ProductView> {
    const product = await this.products.findById(id);
    if (!product) throw new NotFoundException(PRODUCT_NOT_FOUND);
    return product;
  }

  async create(actor: Principal, dto: CreateProductDto, image?: Buffer): Promise<ProductView> {
    await this.categories.assertExists(dto.category);
    const onOffer = dto.onOffer ?? false;
    const fields: ProductFields = {
      productName: dto.productName,
      productDescription: dto.productDescription,
      price: dto.price,
      onOffer,
      offerPrice: onOffer ? (dto.offerPrice ?? 0) : 0,
      productQuantity: dto.productQuantity,
      category: dto.category,
      taxType: dto.taxType ?? null,
      itemClassCode: dto.itemClassCode ?? null,
    };
    assertOffer(fields);
    await this.assertTaxed(fields);

    const id = this.products.newId();
    if (dto.units !== undefined) fields.units = readUnits(dto.units, { id, ...fields }, []);
    const stored = image ? await this.storeImage(id, image) : undefined;
    let product: ProductView;
    try {
      product = await this.products.create(id, fields, stored, actor);
    } catch (error) {
      if (stored) await this.images.remove(stored.imageKeys);
      throw error;
    }
    this.events.changed();
    await this.audit.record(
      actor,
      'product.create',
      `${actor.fullName} created product "${product.productName}" in ${product.category.name} ` +
        `at ${formatMoney(product.price)}${product.onOffer ? ` (on offer at ${formatMoney(product.offerPrice)})` : ''}, ` +
        `${product.productQuantity} in stock`,
      target(product),
    );
    return product;
  }

  /** Replaces the fields sent (absent ones stay); a new image replaces the old files. */
  async update(
    actor: Principal,
    id: string,
    dto: UpdateProductDto,
    image?: Buffer,
  ): Promise<ProductView> {
    let current = await this.currentFields(id);
    if (dto.category !== undefined && dto.category !== current.category) {
      await this.categories.assertExists(dto.category);
    }
    let next = merge(current, dto, id);
    assertOffer(next);
    await this.assertTaxed(next);

    const oldKeys = image ? await this.products.imageKeys(id) : [];
    const stored = image ? await this.storeImage(id, image) : undefined;
    let updated: ProductView | null = null;
    try {
      for (let attempt = 1; !updated; attempt += 1) {
        updated = await this.products.replaceFields(id, current, next, {
          setQuantity: dto.productQuantity !== undefined,
          image: stored,
          by: actor,
        });
        if (updated) break;
        if (attempt === UPDATE_ATTEMPTS) {
          throw new ConflictException(
            'The product was changed by someone else while saving; reload it and try again',
          );
        }
        // Someone changed the price, offer or texts meanwhile: merge into what is there now.
        current = await this.currentFields(id);
        next = merge(current, dto, id);
        assertOffer(next);
        await this.assertTaxed(next);
      }
    } catch (error) {
      if (stored) await this.images.remove(stored.imageKeys);
      throw error;
    }
    if (stored) await this.images.remove(oldKeys.filter((key) => !stored.imageKeys.includes(key)));
    this.events.changed();

    const changed = (Object.keys(FIELD_LABELS) as (keyof ProductFields)[])
      .filter((field) => JSON.stringify(current[field]) !== JSON.stringify(next[field]))
      .map((field) => FIELD_LABELS[field]);
    if (stored) changed.push('image');
    await this.audit.record(
      actor,
      'product.update',
      `${actor.fullName} updated product "${updated.productName}"` +
        (changed.length ? ` (${changed.join(', ')})` : ' (no changes)'),
      target(updated),
    );
    return updated;
  }

  /** `check-stock`: out of stock. */
  async markOutOfStock(actor: Principal, id: string): Promise<ProductView> {
    const product = await this.products.setQuantity(id, 0, { reason: 'out_of_stock', by: actor });
    if (!product) throw new NotFoundException(PRODUCT_NOT_FOUND);
    this.events.changed();
    await this.audit.record(
      actor,
      'product.stock.out',
      `${actor.fullName} marked "${product.productName}" out of stock`,
      target(product),
    );
    return product;
  }

  /** `update-stock`: in stock with this many. */
  async restock(actor: Principal, id: string, quantity: number): Promise<ProductView> {
    const product = await this.products.setQuantity(id, quantity, { reason: 'restock', by: actor });
    if (!product) throw new NotFoundException(PRODUCT_NOT_FOUND);
    this.events.changed();
    await this.audit.record(
      actor,
      'product.stock.in',
      `${actor.fullName} set the stock of "${product.productName}" to ${quantity}`,
      target(product),
    );
    return product;
  }

  async applyOffer(actor: Principal, id: string, offerPrice: number): Promise<ProductView> {
    const product = await this.products.applyOffer(id, offerPrice);
    if (!product) {
      const existing = await this.load(id);
      throw new BadRequestException(
        `${CATALOG_MESSAGES.offerBelowPrice} (${formatMoney(existing.price)})`,
      );
    }
    this.events.changed();
    await this.audit.record(
      actor,
      'product.offer',
      `${actor.fullName} put "${product.productName}" on offer at ${formatMoney(offerPrice)} ` +
        `(price ${formatMoney(product.price)})`,
      target(product),
    );
    return product;
  }

  async remove(actor: Principal, id: string): Promise<ProductView> {
    const deleted = await this.products.delete(id);
    if (!deleted) throw new NotFoundException(PRODUCT_NOT_FOUND);
    await this.images.remove(deleted.imageKeys);
    this.events.changed();
    await this.audit.record(
      actor,
      'product.delete',
      `${actor.fullName} deleted product "${deleted.product.productName}"`,
      target(deleted.product),
    );
    return deleted.product;
  }

  /**
   * A product is taxed at its own type or the shop's default: without either it is refused (400,
   * nothing written), so eTIMS never meets an item without a tax type.
   */
  private async assertTaxed(fields: ProductFields): Promise<void> {
    if (fields.taxType) return;
    if (await this.taxSettings.defaultTaxType()) return;
    throw new BadRequestException({
      message: TAX_MESSAGES.noDefault,
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'taxType', messages: [TAX_MESSAGES.noDefault] }],
    });
  }

  private async currentFields(id: string): Promise<ProductFields> {
    const fields = await this.products.findFields(id);
    if (!fields) throw new NotFoundException(PRODUCT_NOT_FOUND);
    return fields;
  }

  private async storeImage(id: string, bytes: Buffer): Promise<ProductImageFields> {
    const stored = await this.images.store(
      bytes,
      `products/${id}`,
      PRODUCT_IMAGE_WIDTHS,
      PRODUCT_IMAGE_DEFAULT_WIDTH,
    );
    return {
      productImage: stored.url,
      productImages: Object.fromEntries(
        Object.entries(stored.urls).map(([width, url]) => [String(width), url]),
      ),
      imageKeys: stored.keys,
    };
  }
}

/** The stored fields with the form's changes; removing the offer clears its price. */
function merge(current: ProductFields, dto: UpdateProductDto, id: string): ProductFields {
  const onOffer = dto.onOffer ?? current.onOffer;
  const merged = {
    productName: dto.productName ?? current.productName,
    productDescription: dto.productDescription ?? current.productDescription,
    price: dto.price ?? current.price,
    onOffer,
    offerPrice: onOffer ? (dto.offerPrice ?? current.offerPrice) : 0,
    productQuantity: dto.productQuantity ?? current.productQuantity,
    category: dto.category?.toLowerCase() ?? current.category,
    // Left out: as stored; sent empty (null): the shop's default, no classification.
    taxType: dto.taxType !== undefined ? dto.taxType : (current.taxType ?? null),
    itemClassCode:
      dto.itemClassCode !== undefined ? dto.itemClassCode : (current.itemClassCode ?? null),
  };
  // Units sent replace the units (checked against the merged price); else they stay.
  const units =
    dto.units !== undefined
      ? readUnits(dto.units, { id, ...merged }, current.units ?? [])
      : current.units;
  return { ...merged, units };
}

/** On offer means an offer price above 0 and below the price. */
function assertOffer(fields: ProductFields): void {
  if (!fields.onOffer) return;
  if (!(fields.offerPrice > 0)) throw new BadRequestException(M.offerPriceRequired);
  if (fields.offerPrice >= fields.price) {
    throw new BadRequestException(
      `${CATALOG_MESSAGES.offerBelowPrice} (${formatMoney(fields.price)})`,
    );
  }
}

function target(product: ProductView): AuditTargetRef {
  return { type: 'product', id: product._id, label: product.productName };
}
