import { ERROR_CODE_LIST, ERROR_CODES, isErrorCode } from './error-codes';

describe('error codes', () => {
  it('lists every documented code once, in the documentation order', () => {
    expect(ERROR_CODE_LIST).toEqual(Object.keys(ERROR_CODES));
    expect(new Set(ERROR_CODE_LIST).size).toBe(ERROR_CODE_LIST.length);
  });

  it('knows the codes by name alone and nothing else', () => {
    expect(isErrorCode('OUT_OF_STOCK')).toBe(true);
    expect(isErrorCode('INTERNAL_ERROR')).toBe(true);
    expect(isErrorCode('out_of_stock')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode('')).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
    expect(isErrorCode(404)).toBe(false);
  });
});
