import { PreparedAnswers } from '../common/prepared-answers';

/** The catalogue's prepared answers (product list pages and product pages), served by URL. */
export class CatalogAnswers extends PreparedAnswers {}

/** The routes whose answers {@link CatalogAnswers} holds, as registered (global prefix included). */
export const CATALOG_ANSWER_ROUTES = ['/api/products', '/api/products/:id'];
