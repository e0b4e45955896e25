import type { EtimsSimulator } from '../../../tools/etims/simulator';
import type { OscuLine } from '../../src/etims/oscu-tax';
import type { OscuItemRequest } from '../../src/etims/oscu.types';

/** The simulator's test values, as ETIMS_ENV=sandbox-local uses them. */
export const SANDBOX_PIN = 'P000000000Z';
export const SANDBOX_CMC_KEY = 'local-cmc-key-not-secret';
export const TEST_REGISTRAR = { regrId: 'test', regrNm: 'Test', modrId: 'test', modrNm: 'Test' };

/** An item as a test registers it with `saveItem` (a goods item, by the piece). */
export function oscuItem(
  itemCd: string,
  itemNm: string,
  taxTyCd: OscuItemRequest['taxTyCd'],
  dftPrc: number,
  { itemClsCd = '1015150000', registrar = TEST_REGISTRAR } = {},
): OscuItemRequest {
  return {
    itemCd,
    itemClsCd,
    itemTyCd: '2',
    itemNm,
    orgnNatCd: 'KE',
    pkgUnitCd: 'NT',
    qtyUnitCd: 'U',
    taxTyCd,
    dftPrc,
    isrcAplcbYn: 'N',
    useYn: 'Y',
    ...registrar,
  };
}

/** A sale's line of `qty` of a registered item, at its default price. */
export const lineOf = (item: OscuItemRequest, qty: number): OscuLine => ({
  itemCd: item.itemCd,
  itemClsCd: item.itemClsCd,
  itemNm: item.itemNm,
  pkgUnitCd: item.pkgUnitCd,
  qtyUnitCd: item.qtyUnitCd,
  qty,
  unitPrice: item.dftPrc,
  taxTyCd: item.taxTyCd,
});

/**
 * The settings of an API signing against the simulator; the suite drives the sender itself (the
 * sweep's own runs are an hour apart).
 */
export const etimsEnv = (sim: EtimsSimulator, timeoutMs = 4000): Record<string, string> => ({
  ETIMS_ENV: 'sandbox-local',
  ETIMS_BASE_URL: sim.apiUrl,
  ETIMS_TOKEN_URL: sim.tokenUrl,
  ETIMS_PORTAL_URL: sim.portalUrl,
  ETIMS_TIMEOUT_MS: String(timeoutMs),
  ETIMS_SEND_EVERY_MS: '3600000',
  ETIMS_RETRY_MS: '60000',
});
