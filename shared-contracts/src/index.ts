export * from './constants';
export * from './messages';
export * from './password';
export type { components, operations, paths } from './generated/api-types';
