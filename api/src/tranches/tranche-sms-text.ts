import { trancheLabel, type TrancheSmsEvent } from '@spc/shared-contracts';
import { dayAndMonth } from '../sms/sms-text';

/**
 * The texts a tranche's site contact gets: short, and nothing anyone typed (the site's name and
 * the LPO number stay out, as names and addresses stay out of every text of the shop).
 */
export function trancheSmsText(
  event: TrancheSmsEvent,
  load: { purchaseNumber: string; number: number; date: string; seedlings: number },
  shopPhone: string,
): string {
  const shop = 'Seedling Propagation Centre';
  const what = `load ${trancheLabel(load.number)} of order ${load.purchaseNumber}, ${load.seedlings.toLocaleString('en-US')} seedlings`;
  switch (event) {
    case 'tranche-tomorrow':
      return `${shop}: tomorrow (${dayAndMonth(load.date)}) we deliver ${what}, to your site. Please be there to count them and sign the delivery note. Questions? Call ${shopPhone}.`;
    case 'tranche-sent':
      return `${shop}: ${what}, left our nursery for your site today. Please count them and sign the delivery note on arrival. Questions? Call ${shopPhone}.`;
  }
}
