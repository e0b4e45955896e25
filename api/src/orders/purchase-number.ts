import { randomInt } from 'node:crypto';
import { PURCHASE_NUMBER } from '@spc/shared-contracts';

/** `SPD` + 8 characters from an alphabet without 0/O and 1/I: 32^8 ≈ 10^12 values, drawn at random. */
export function newPurchaseNumber(): string {
  let code = '';
  for (let i = 0; i < PURCHASE_NUMBER.length; i++)
    code += PURCHASE_NUMBER.alphabet[randomInt(PURCHASE_NUMBER.alphabet.length)];
  return `${PURCHASE_NUMBER.prefix}${code}`;
}
