import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { CatalogReadModel } from '../catalog/read-model/catalog-read-model';
import type { ProductListQueryDto } from '../catalog/dto/product.dto';
import type { Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { Seeder } from './seed.types';
import { UsersService } from '../users/users.service';
import { OrdersRepository } from '../orders/orders.repository';
import { OrderCredits } from '../orders/order-credits';
import { OrdersService } from '../orders/orders.service';
import { Order } from '../orders/schemas/order.schema';

/** The demo staff member the seeded orders are handled by (development and demos only). */
export const DEMO_STAFF = {
  email: 'staff@spc.local',
  password: 'Staff@1234',
  fullName: 'Grace Njeri',
};

const CUSTOMERS = [
  {
    fullName: 'Achieng Otieno',
    phoneNumber: '0722000111',
    email: 'achieng@example.co.ke',
    county: 'Kiambu',
    subCounty: 'Ruiru',
    ward: 'Gitothua',
    streetAddress: 'Kamakis, near the stage',
  },
  {
    fullName: 'Kamau Mwangi',
    phoneNumber: '0733000222',
    email: 'kamau@example.co.ke',
    county: 'Nairobi',
    subCounty: 'Westlands',
    ward: 'Parklands/Highridge',
    streetAddress: 'Limuru Road, Parklands',
  },
  {
    fullName: 'Wanjiru Kariuki',
    phoneNumber: '+254711000333',
    email: 'wanjiru@example.co.ke',
    county: 'Nakuru',
    subCounty: 'Naivasha',
    ward: 'Hells Gate',
    streetAddress: 'Moi South Lake Road',
  },
  {
    fullName: 'Otieno Odhiambo',
    phoneNumber: '0700000444',
    email: 'otieno@example.co.ke',
    county: 'Kisumu',
    subCounty: 'Kisumu Central',
    ward: 'Milimani',
    streetAddress: 'Oginga Odinga Street',
  },
];

type Step = 'pay' | 'ship' | 'deliver' | 'fulfil' | 'cancel';
/** Orders in every status, spread over the last two weeks so the reports have a shape. */
const PLAN: { daysAgo: number; steps: Step[] }[] = [
  { daysAgo: 0, steps: [] },
  { daysAgo: 0, steps: [] },
  { daysAgo: 1, steps: ['pay'] },
  { daysAgo: 2, steps: ['pay'] },
  { daysAgo: 2, steps: ['ship'] },
  { daysAgo: 3, steps: ['pay', 'ship'] },
  { daysAgo: 4, steps: ['pay', 'ship', 'deliver'] },
  { daysAgo: 5, steps: ['ship', 'deliver'] },
  { daysAgo: 6, steps: ['pay', 'ship', 'deliver', 'fulfil'] },
  { daysAgo: 8, steps: ['pay', 'ship', 'fulfil'] },
  { daysAgo: 10, steps: ['pay', 'ship', 'deliver', 'fulfil'] },
  { daysAgo: 13, steps: ['pay', 'ship', 'deliver', 'fulfil'] },
  { daysAgo: 3, steps: ['cancel'] },
];

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A demo staff member and a dozen orders in every status, placed and moved through the real
 * services (so stock, audit entries and payments are as the app makes them). Skipped when orders exist.
 */
@Injectable()
export class OrdersSeeder implements Seeder {
  readonly name = 'orders';

  constructor(private readonly moduleRef: ModuleRef) {}

  async seed(): Promise<string> {
    const repository = this.moduleRef.get(OrdersRepository, { strict: false });
    if ((await repository.count()) > 0) return 'orders already exist; none added';
    const orders = this.moduleRef.get(OrdersService, { strict: false });
    const credits = this.moduleRef.get(OrderCredits, { strict: false });
    const catalogue = this.moduleRef.get(CatalogReadModel, { strict: false });

    const { principal: staff, password } = await demoStaff(this.moduleRef);

    const { page } = await catalogue.list({
      page: 1,
      limit: 60,
      minPrice: 1,
    } as ProductListQueryDto);
    // A product sold by the tray is bought by its smallest tray, as growers buy seedlings.
    const lineOf = (p: (typeof page.products)[number]) => ({ _id: p._id, unit: p.units[1] });
    const inStock = page.products
      .map(lineOf)
      .filter((l, i) => page.products[i]!.productQuantity >= 5 * (l.unit?.seedlings ?? 1));
    if (inStock.length < 3) return 'no products in stock; no orders added';

    let placed = 0;
    for (const [i, plan] of PLAN.entries()) {
      const lines = [0, 1].slice(0, 1 + (i % 2)).map((k) => {
        const line = inStock[(i * 3 + k * 7) % inStock.length]!;
        return {
          _id: line._id,
          quantity: 1 + ((i + k) % 3),
          ...(line.unit ? { unitId: line.unit._id } : {}),
        };
      });
      const { order } = await orders.place(undefined, {
        guestInfo: CUSTOMERS[i % CUSTOMERS.length]!,
        products: lines,
      });
      for (const step of plan.steps) {
        if (step === 'pay') {
          await credits.recordAtDesk(staff, order._id, {
            paymentMethod: i % 3 === 0 ? 'Mpesa' : 'Cash',
            paymentDetails: {
              amount: order.totalAmount,
              ...(i % 3 === 0
                ? {
                    transactionCode: `SG${(100000 + i * 7919).toString(36).toUpperCase()}`,
                    timePaid: new Date().toISOString(),
                  }
                : {}),
            },
          });
        }
        if (step === 'ship') await orders.moveInTransit(staff, order._id);
        if (step === 'deliver') await orders.confirmDelivery(staff, order._id);
        if (step === 'fulfil') {
          if (!plan.steps.includes('pay')) continue;
          await orders.fulfil(staff, order._id);
        }
        if (step === 'cancel') await orders.cancel(staff, order._id);
      }
      await backdate(
        this.moduleRef.get<Model<Order>>(getModelToken(Order.name), { strict: false }),
        order._id,
        plan.daysAgo * DAY_MS,
      );
      placed += 1;
    }
    return `${placed} orders in every status; demo staff ${DEMO_STAFF.email}${password ? ` / ${password}` : ''}`;
  }
}

/**
 * The demo staff member the demo's orders, bookings and payments are handled by: found, or made
 * (with the published demo password outside production, a random one in a production demo, which
 * is then answered to be printed once).
 */
export async function demoStaff(
  moduleRef: ModuleRef,
): Promise<{ principal: Principal; password: string | null }> {
  const users = moduleRef.get(UsersService, { strict: false });
  const existing = await users.findByEmail(DEMO_STAFF.email);
  if (existing)
    return {
      principal: { id: existing._id, role: 'staff', fullName: existing.fullName },
      password: null,
    };
  const config = moduleRef.get<AppConfig>(APP_CONFIG, { strict: false });
  const password =
    config.env === 'production'
      ? `Demo#${randomBytes(9).toString('base64url')}`
      : DEMO_STAFF.password;
  const created = await users.createAccount({
    ...DEMO_STAFF,
    password,
    phoneNumber: '0711000222',
    role: 'staff',
  });
  return { principal: { id: created._id, role: 'staff', fullName: created.fullName }, password };
}

/** Moves a demo order's dates back in time (order, payment, shipping, delivery). */
async function backdate(orders: Model<Order>, id: string, byMs: number): Promise<void> {
  const doc = await orders.findById(id).lean<Order>();
  if (!doc) return;
  const back = (d: Date | null | undefined) => (d ? new Date(new Date(d).getTime() - byMs) : d);
  await orders.updateOne(
    { _id: id },
    {
      $set: {
        orderDate: back(doc.orderDate),
        estimatedDeliveryDate: back(doc.estimatedDeliveryDate),
        paidAt: back(doc.paidAt),
        inTransitDate: back(doc.inTransitDate),
        deliveredDate: back(doc.deliveredDate),
        cancelledDate: back(doc.cancelledDate),
        ...(doc.paymentDetails?.timePaid
          ? { 'paymentDetails.timePaid': back(doc.paymentDetails.timePaid) }
          : {}),
      },
    },
  );
}
