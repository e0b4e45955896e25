import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { toMpesaPhone, type BookingState, type SaleUnit } from '@spc/shared-contracts';
import { CatalogReadModel } from '../catalog/read-model/catalog-read-model';
import type { ProductListQueryDto } from '../catalog/dto/product.dto';
import type { Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { OrderBookings } from '../bookings/booking-orders';
import type { OrderRecord } from '../orders/order.types';
import { OrdersService } from '../orders/orders.service';
import { C2bPayment, MpesaRefund } from '../payments/c2b/c2b.schemas';
import { C2bInboxService } from '../payments/c2b/c2b-inbox.service';
import { C2bService } from '../payments/c2b/c2b.service';
import { MpesaRefundsService } from '../payments/c2b/mpesa-refunds.service';
import { MpesaService } from '../payments/mpesa.service';
import { demoMpesaCode, GROWERS, type DemoGrower } from './bookings.seeder';
import { demoStaff } from './orders.seeder';
import type { Seeder } from './seed.types';

/** Buyers of the demo's ordinary orders paid by M-Pesa (made-up names, numbers and addresses). */
const BUYERS = {
  school: {
    fullName: 'Moses Kirui',
    phoneNumber: '0733100301',
    email: 'bursar@kapsabet-boys.example.co.ke',
    county: 'Nandi',
    subCounty: 'Emgwen',
    ward: 'Kapsabet',
    streetAddress: 'Kapsabet Boys High School',
  },
  farmer: {
    fullName: 'Anne Wairimu',
    phoneNumber: '0733100302',
    email: 'anne.wairimu@example.co.ke',
    county: 'Kiambu',
    subCounty: 'Gatundu North',
    ward: 'Chania',
    streetAddress: 'Kamwangi, past the coffee factory',
  },
  gardener: {
    fullName: 'Ibrahim Hassan',
    phoneNumber: '0733100303',
    email: 'ibrahim.hassan@example.co.ke',
    county: 'Nairobi',
    subCounty: 'Langata',
    ward: 'Karen',
    streetAddress: 'Bogani Road',
  },
} satisfies Record<string, DemoGrower>;

/** What a line of a demo order buys: the product, its unit (by name) and how many. */
type Line = [product: string, unit: string, quantity: number];

const ORDERS = {
  /** Pays the paybill with the purchase number: matched, paid in full. */
  school: [
    ['Grevillea robusta Tube Seedling', 'Tray of 50 Tubes', 4],
    ['Hass Avocado Grafted Seedling in 2 L Bag', 'Single seedling', 10],
  ],
  /** Pays part of it by the paybill. */
  farmer: [
    ['Tomato Rio Grande', 'Tray of 100', 2],
    ['Sukuma Wiki (Collard)', 'Tray of 50', 4],
  ],
  /** Pays by M-Pesa Express, then the order is cancelled and the money sent back by M-Pesa. */
  gardener: [
    ['Rosemary Plug Seedling', 'Tray of 50', 1],
    ['French Marigold', 'Tray of 24', 2],
  ],
} satisfies Record<keyof typeof BUYERS, Line[]>;

/** How long the seed waits for Daraja (the simulator) to pay a prompt or send a refund. */
const DARAJA_WAIT_MS = 30_000;

/**
 * The demo's M-Pesa money: paybill payments as Daraja confirms them (matched to an order by its
 * purchase number and paying it, part-paying another, a booking's deposit, a booking's balance in
 * part and in full, and one that matches nothing and waits in the payments inbox), an order paid
 * by M-Pesa Express, and its cancellation with the refund sent back through M-Pesa. Only with the
 * seed's own Daraja (the simulator `npm run seed` runs beside it): never a real one. Skipped when
 * paybill payments exist.
 */
@Injectable()
export class PaymentsSeeder implements Seeder {
  readonly name = 'payments';

  constructor(private readonly moduleRef: ModuleRef) {}

  private get<T>(type: new (...args: never[]) => T): T {
    return this.moduleRef.get(type, { strict: false });
  }

  private model<T>(name: string): Model<T> {
    return this.moduleRef.get<Model<T>>(getModelToken(name), { strict: false });
  }

  async seed(): Promise<string> {
    const config = this.moduleRef.get<AppConfig>(APP_CONFIG, { strict: false });
    if (!config.mpesa)
      return 'none: M-Pesa is off for this seeding (`npm run seed` runs the Daraja simulator for the paybill payments and the refund)';
    const before = await this.model<C2bPayment>(C2bPayment.name).countDocuments({});
    if (before > 0) return `${before} paybill payments already there; none added`;
    const { principal: staff } = await demoStaff(this.moduleRef);
    const shortcode = config.mpesa.shortcode;
    const pay = (order: OrderRecord | null, amount: number, who: DemoGrower) =>
      order
        ? this.get(C2bService).confirm({
            transId: demoMpesaCode(),
            amount,
            account: order.purchaseNumber,
            phone: toMpesaPhone(who.phoneNumber) ?? '',
            payerName: who.fullName.split(' ')[0]!,
            paidAt: new Date(),
            shortcode,
          })
        : Promise.resolve();

    const school = await this.place(BUYERS.school, ORDERS.school);
    await pay(school, school?.totalAmount ?? 0, BUYERS.school);
    const farmer = await this.place(BUYERS.farmer, ORDERS.farmer);
    await pay(farmer, roundDown(Math.floor((farmer?.totalAmount ?? 0) * 0.4)), BUYERS.farmer);

    const deposit = await this.booking('Deposit due', GROWERS.mutua);
    await pay(deposit, deposit?.booking?.deposit ?? 0, GROWERS.mutua);
    const partBalance = await this.booking('Balance due', GROWERS.nyambura);
    await pay(
      partBalance,
      roundDown(Math.floor((partBalance?.amountDueNow ?? 0) / 2)),
      GROWERS.nyambura,
    );
    const fullBalance = await this.booking('Balance due', GROWERS.achieng);
    await pay(fullBalance, fullBalance?.amountDueNow ?? 0, GROWERS.achieng);

    // A payment typed with a name for its account, from a number with no open order.
    await this.get(C2bService).confirm({
      transId: demoMpesaCode(),
      amount: 1500,
      account: 'MAMA WANJA',
      phone: '254799100401',
      payerName: 'Jane',
      paidAt: new Date(),
      shortcode,
    });

    const refunded = await this.paidByPromptThenRefunded(staff);
    const paybill = await this.model<C2bPayment>(C2bPayment.name).countDocuments({});
    return `${paybill} paybill payments added${refunded ? ', and an order paid by M-Pesa Express then cancelled with its refund sent by M-Pesa' : ''}`;
  }

  /**
   * An order paid by M-Pesa Express (the prompt the checkout sends; the simulator pays it), then
   * cancelled by the clerk with the money sent back through M-Pesa (a reversal of its receipt).
   */
  private async paidByPromptThenRefunded(staff: Principal): Promise<boolean> {
    const order = await this.place(BUYERS.gardener, ORDERS.gardener);
    if (!order) return false;
    const orders = this.get(OrdersService);
    await this.get(MpesaService).push(order.purchaseNumber, BUYERS.gardener.phoneNumber, staff);
    const paid = await until(
      () => orders.findAnyOrder(order._id),
      (o) => o?.paymentStatus === 'Paid',
    );
    if (paid?.paymentStatus !== 'Paid') return false;
    await orders.cancel(staff, order._id, { method: 'Mpesa', amount: paid.amountPaid, send: true });
    const refunds = await until(
      () => this.get(MpesaRefundsService).forOrder(order._id),
      (sent) => sent.some((r) => r.status === 'sent' || r.status === 'failed'),
    );
    return refunds.some((r) => r.status === 'sent');
  }

  /** Places a buyer's order of the lines whose products (and units) the catalogue has in stock. */
  private async place(buyer: DemoGrower, lines: Line[]): Promise<OrderRecord | null> {
    const catalogue = this.get(CatalogReadModel);
    const products: { _id: string; quantity: number; unitId: string }[] = [];
    for (const [name, unitName, quantity] of lines) {
      const { page } = await catalogue.list({
        page: 1,
        limit: 20,
        search: name,
      } as ProductListQueryDto);
      const product = page.products.find((p) => p.productName === name);
      const unit: SaleUnit | undefined = product?.units.find((u) => u.name === unitName);
      if (product && unit && product.productQuantity >= quantity * unit.seedlings)
        products.push({ _id: product._id, quantity, unitId: unit._id });
    }
    if (!products.length) return null;
    const { order } = await this.get(OrdersService).place(undefined, {
      guestInfo: buyer,
      products,
    });
    return this.get(OrdersService).findAnyOrder(order._id);
  }

  /** The grower's booking in this state (placed by the bookings seeder), or null. */
  private async booking(state: BookingState, who: DemoGrower): Promise<OrderRecord | null> {
    const { items } = await this.get(OrderBookings).inState(state, 'Pending', { limit: 100 });
    return items.find((o) => o.guestInfo.email === who.email) ?? null;
  }

  /** "6 paybill payments (2 paying their order in full, 3 in part, 1 in the inbox), ..." from the database. */
  async counts(): Promise<string> {
    const payments = await this.model<C2bPayment>(C2bPayment.name)
      .find({}, { status: 1, orderId: 1 })
      .lean<Pick<C2bPayment, 'status' | 'orderId'>[]>();
    const orders = this.get(OrdersService);
    let full = 0;
    let part = 0;
    for (const p of payments.filter((x) => x.status === 'matched' && x.orderId)) {
      const order = await orders.findAnyOrder(p.orderId!);
      if (order?.paymentStatus === 'Paid') full++;
      else part++;
    }
    const inbox = await this.get(C2bInboxService).countWaiting();
    const sent = await this.model<MpesaRefund>(MpesaRefund.name).countDocuments({
      status: 'sent',
    });
    return (
      `${payments.length} paybill payments (${full} paying their order in full, ${part} in part, ` +
      `${inbox} waiting in the payments inbox), ${sent} refund${sent === 1 ? '' : 's'} sent by M-Pesa`
    );
  }
}

/** Whole hundreds, as people pay a part (at least KES 100). */
function roundDown(amount: number): number {
  return Math.max(100, Math.floor(amount / 100) * 100);
}

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + DARAJA_WAIT_MS;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    value = await probe();
  }
  return value;
}
