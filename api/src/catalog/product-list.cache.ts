/** Compatibility path for the stock service (see ProductListCache in read-model/catalogue-events). */
export { ProductListCache } from './read-model/catalogue-events';
