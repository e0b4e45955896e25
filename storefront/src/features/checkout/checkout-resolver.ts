import { zodResolver } from '@hookform/resolvers/zod';
import { checkoutFormSchema } from '@spc/shared-contracts';

/** The checkout form's rules (zod and the shared schema), loaded beside the form: see checkout.tsx. */
export const checkoutResolver = zodResolver(checkoutFormSchema);
