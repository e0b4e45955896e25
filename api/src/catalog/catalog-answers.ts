import { envelope } from '../common/answer';
import { isObjectId } from '../common/parse-object-id.pipe';
import { PreparedAnswers, type PreparedAnswerLookup } from '../common/prepared-answers';
import { SerializedAnswers } from '../common/serialized-answers';
import type { ProductListPage, ProductView } from './catalog.types';
import type { CatalogSnapshot } from './catalog-snapshot';
import { PRODUCT_LIST_TTL_MS } from './product-list.cache';

/**
 * The catalogue's public answers as JSON bytes: product list pages and product pages. Handlers send
 * them; a Fastify hook (see `servePreparedAnswers`) sends them again without Nest's pipeline:
 * - a list page, by the URL as sent, once a handler produced it for that URL (`lists`, dropped with
 *   the product lists on every catalogue or stock change);
 * - a product page, straight from the catalogue snapshot in memory whenever that snapshot is current
 *   (no change pending, no look at other instances due): every product has one, so this holds for a
 *   catalogue of any size without keeping a page per URL.
 */
export class CatalogAnswers {
  /** Dropped with the product lists, and living as long as they do. */
  readonly lists = new PreparedAnswers(PRODUCT_LIST_TTL_MS);
  readonly listTexts = new SerializedAnswers((page: ProductListPage) =>
    envelope('Products retrieved', page),
  );
  readonly productTexts = new SerializedAnswers((product: ProductView) =>
    envelope('Product retrieved', { product }),
  );

  constructor(private readonly snapshot: CatalogSnapshot) {}

  /** The prepared answers' lookups by route, as registered (global prefix included). */
  lookups(): Record<string, PreparedAnswerLookup> {
    return {
      '/api/products': (request) => this.lists.get(request.url),
      '/api/products/:id': (request) => {
        const { id } = request.params as { id?: string };
        // Only ids as the handler would read them (it lower-cases); anything else goes to it.
        if (!isObjectId(id) || id !== id.toLowerCase()) return undefined;
        const product = this.snapshot.peek()?.byId.get(id);
        return product ? this.productTexts.text(product.view) : undefined;
      },
    };
  }
}
