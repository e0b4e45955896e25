export * from './constants';
export * from './messages';
export * from './password';
export * from './identity-forms';
export type { components, operations, paths } from './generated/api-types';
