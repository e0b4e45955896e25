import { STORAGE_KEYS } from '@spc/shared-contracts';
import { createApiClient } from '@spc/shared-contracts/client';
import { env } from '../config/env';

/** The typed API client of this app. */
export const api = createApiClient({
  baseUrl: env.apiUrl,
  getAccessToken: () => localStorage.getItem(STORAGE_KEYS.token),
});
