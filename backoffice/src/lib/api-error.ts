export { ApiError, errorCode, errorMessage, unwrap } from '@spc/shared-contracts/web-client';
