import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { CATALOG_MESSAGES } from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { isDuplicateKeyError } from '../common/mongo-errors';
import { totalPages } from '../common/pagination';
import type { Principal } from '../common/principal';
import { CategoriesRepository } from './categories.repository';
import type { CategoryPage, CategoryView } from './catalog.types';
import type {
  CategoryListQueryDto,
  CreateCategoryDto,
  UpdateCategoryDto,
} from './dto/category.dto';
import { CatalogueEvents } from './read-model/catalogue-events';

const NOT_FOUND = 'No category with this id';

/** Categories: unique names (whatever their case), and never deleted while they hold products. */
@Injectable()
export class CategoriesService {
  constructor(
    private readonly categories: CategoriesRepository,
    private readonly audit: AuditService,
    private readonly events: CatalogueEvents,
  ) {}

  /**
   * By name; every category unless a `limit` is asked for. `counts` (products per category id)
   * spares counting again when the caller has them.
   */
  async list(
    query: CategoryListQueryDto = {},
    counts?: Record<string, number> | Promise<Record<string, number>>,
  ): Promise<CategoryPage> {
    const page = query.page ?? 1;
    const skip = query.limit ? (page - 1) * query.limit : 0;
    const { items, total } = await this.categories.list({
      skip,
      limit: query.limit,
      search: query.search,
      counts,
    });
    return { items, total, totalPages: totalPages(total, query.limit ?? Math.max(total, 1)), page };
  }

  async get(id: string): Promise<CategoryView> {
    const category = await this.categories.findById(id);
    if (!category) throw new NotFoundException(NOT_FOUND);
    return category;
  }

  /** For a product form: the category must exist (a 400, since the form is what is wrong). */
  async assertExists(id: string): Promise<void> {
    if (!(await this.categories.exists(id))) {
      throw new BadRequestException(CATALOG_MESSAGES.categoryNotFound);
    }
  }

  async create(actor: Principal, dto: CreateCategoryDto): Promise<CategoryView> {
    const category = await this.uniqueName(() => this.categories.create(dto));
    this.events.changed();
    await this.audit.record(
      actor,
      'category.create',
      `${actor.fullName} created category "${category.name}"`,
      { type: 'category', id: category._id, label: category.name },
    );
    return category;
  }

  async update(actor: Principal, id: string, dto: UpdateCategoryDto): Promise<CategoryView> {
    const before = await this.get(id);
    if (dto.name === undefined && dto.description === undefined) return before;
    const category = await this.uniqueName(() => this.categories.update(id, dto));
    if (!category) throw new NotFoundException(NOT_FOUND);
    this.events.changed();
    const renamed = before.name !== category.name ? ` (renamed from "${before.name}")` : '';
    await this.audit.record(
      actor,
      'category.update',
      `${actor.fullName} updated category "${category.name}"${renamed}`,
      { type: 'category', id, label: category.name },
    );
    return category;
  }

  async remove(actor: Principal, id: string): Promise<CategoryView> {
    const category = await this.get(id);
    if (category.productCount > 0) {
      throw new ConflictException(
        `The category "${category.name}" still has ${category.productCount} ` +
          `${category.productCount === 1 ? 'product' : 'products'}; move them to another category ` +
          'or delete them first',
      );
    }
    const deleted = await this.categories.delete(id);
    if (!deleted) throw new NotFoundException(NOT_FOUND);
    this.events.changed();
    await this.audit.record(
      actor,
      'category.delete',
      `${actor.fullName} deleted category "${deleted.name}"`,
      { type: 'category', id, label: deleted.name },
    );
    return deleted;
  }

  private async uniqueName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isDuplicateKeyError(error))
        throw new ConflictException(CATALOG_MESSAGES.categoryNameTaken);
      throw error;
    }
  }
}
