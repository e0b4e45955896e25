export * from './constants';
export * from './messages';
export * from './password';
export * from './identity-forms';
export * from './checkout-forms';
export * from './order-state';
export * from './order-chat';
export * from './catalog-forms';
export type { components, operations, paths } from './generated/api-types';
