import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import {
  BATCH_STATUSES,
  BOOKING_STATES,
  ORDER_STATUSES,
  type SaleUnit,
  type SeasonKey,
} from '@spc/shared-contracts';
import { BatchDeskService } from '../batches/batch-desk.service';
import { BatchesService } from '../batches/batches.service';
import { comingSeasons } from '../batches/seasons';
import { BookingsService } from '../bookings/bookings.service';
import { CatalogReadModel } from '../catalog/read-model/catalog-read-model';
import type { ProductListQueryDto } from '../catalog/dto/product.dto';
import type { Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { OrderBookings } from '../bookings/booking-orders';
import type { OrderRecord } from '../orders/order.types';
import { OrdersService } from '../orders/orders.service';
import { addDays } from '../common/shop-clock';
import { demoStaff } from './orders.seeder';
import type { Seeder } from './seed.types';

/** A grower who books seedlings (one booking each, so the open-order caps never stop the demo). */
export interface DemoGrower {
  fullName: string;
  phoneNumber: string;
  email: string;
  county: string;
  subCounty: string;
  ward: string;
  streetAddress: string;
}

const grower = (
  fullName: string,
  phoneNumber: string,
  county: string,
  subCounty: string,
  ward: string,
  streetAddress: string,
): DemoGrower => ({
  fullName,
  phoneNumber,
  email: `${fullName.toLowerCase().replace(/[^a-z]+/g, '.')}@example.co.ke`,
  county,
  subCounty,
  ward,
  streetAddress,
});

/** Growers of the demo's bookings (made-up names, numbers and addresses). */
export const GROWERS = {
  njoroge: grower('Peter Njoroge', '0722100201', 'Kiambu', 'Limuru', 'Ndeiya', 'Ndeiya, farm 12'),
  chebet: grower('Faith Chebet', '0722100202', 'Uasin Gishu', 'Kapseret', 'Langas', 'Plot 4'),
  mutua: grower('Daniel Mutua', '0722100203', 'Machakos', 'Mavoko', 'Athi River', 'Kitengela Rd'),
  wambui: grower('Grace Wambui', '0722100204', "Murang'a", 'Kandara', "Ng'araria", 'Gaichanjiru'),
  omondi: grower('Brian Omondi', '0722100205', 'Siaya', 'Bondo', 'West Yimbo', 'Usenge beach road'),
  nyambura: grower('Lucy Nyambura', '0722100206', 'Nyeri', 'Othaya', 'Mahiga', 'Othaya town'),
  kiprono: grower('Kiprono Rotich', '0722100207', 'Nandi', 'Mosop', 'Kabiyet', 'Kabiyet centre'),
  achieng: grower('Mary Achieng', '0722100208', 'Kisumu', 'Seme', 'Central Seme', 'Kombewa'),
  kamau: grower('Joseph Kamau', '0722100209', 'Nakuru', 'Njoro', 'Mau Narok', 'Mau Narok'),
  wanjiku: grower('Esther Wanjiku', '0722100210', 'Kirinyaga', 'Mwea', 'Thiba', 'Wanguru'),
  mwikali: grower('Ruth Mwikali', '0722100211', 'Makueni', 'Kibwezi West', 'Makindu', 'Makindu'),
  barasa: grower('Samuel Barasa', '0722100212', 'Bungoma', 'Kimilili', 'Kibingei', 'Kamukuywa'),
  akinyi: grower('Susan Akinyi', '0722100213', 'Homa Bay', 'Rangwe', 'West Gem', 'Rangwe'),
} as const;

type GrowerKey = keyof typeof GROWERS;

/** A booking: who, how much of which unit, and whether a clerk recorded its deposit. */
interface BookingPlan {
  who: GrowerKey;
  unit: string;
  quantity: number;
  /** The clerk records the deposit, an M-Pesa code the grower read out. */
  deposit?: true;
}

/** When a batch is ready: days from today, or a place (0 to 1) in a coming season's ready days. */
type ReadyWhen = { inDays: number } | { season: SeasonKey; at: number };

interface BatchPlan {
  product: string;
  ready: ReadyWhen;
  /** Sowing to ready, in days (sown at most a week ago when the ready day is further away). */
  growDays: number;
  started: number;
  note: string;
  bookings: BookingPlan[];
  /** After the bookings: ready early (its ready day brought to today), or seedlings lost. */
  then?: 'ready' | { lost: number; note: string };
}

/**
 * A dozen products growing for the coming weeks and both rains, one batch ready today, one short
 * after damping-off. Names are the demo catalogue's (a product deleted since is left out).
 */
export const BATCH_PLANS: BatchPlan[] = [
  {
    product: 'Tomato Anna F1',
    ready: { inDays: 12 },
    growDays: 35,
    started: 6000,
    note: 'Greenhouse 2, bench A',
    bookings: [
      { who: 'njoroge', unit: 'Tray of 50', quantity: 4 },
      { who: 'chebet', unit: 'Tray of 100', quantity: 3, deposit: true },
    ],
  },
  {
    product: 'Cabbage Gloria F1',
    ready: { inDays: 19 },
    growDays: 35,
    started: 8000,
    note: 'Nursery bed 4',
    bookings: [
      // Its deposit comes by the paybill (the payments seeder).
      { who: 'mutua', unit: 'Tray of 50', quantity: 6 },
      { who: 'wambui', unit: 'Tray of 100', quantity: 2 },
    ],
  },
  {
    product: 'Sukuma Wiki (Collard)',
    ready: { inDays: 26 },
    growDays: 30,
    started: 10000,
    note: 'Nursery bed 1',
    bookings: [{ who: 'omondi', unit: 'Tray of 200', quantity: 5, deposit: true }],
  },
  {
    product: 'Onion Red Bombay',
    ready: { inDays: 40 },
    growDays: 45,
    started: 12000,
    note: 'Nursery bed 6',
    bookings: [],
  },
  {
    product: 'Spinach Fordhook Giant',
    ready: { inDays: 16 },
    growDays: 30,
    started: 5000,
    note: 'Nursery bed 2',
    bookings: [],
  },
  {
    product: 'Kale Thousand Headed',
    ready: { inDays: 1 },
    growDays: 30,
    started: 4000,
    note: 'Nursery bed 3',
    bookings: [
      // Balances by the paybill (the payments seeder): part of one, all of another.
      { who: 'nyambura', unit: 'Tray of 50', quantity: 5, deposit: true },
      { who: 'kiprono', unit: 'Tray of 100', quantity: 2, deposit: true },
      { who: 'achieng', unit: 'Tray of 50', quantity: 3, deposit: true },
    ],
    then: 'ready',
  },
  {
    product: 'Capsicum California Wonder',
    ready: { inDays: 33 },
    growDays: 42,
    started: 1500,
    note: 'Greenhouse 1',
    bookings: [
      { who: 'kamau', unit: 'Tray of 50', quantity: 10, deposit: true },
      { who: 'wanjiku', unit: 'Tray of 50', quantity: 8, deposit: true },
      { who: 'mwikali', unit: 'Tray of 100', quantity: 5 },
    ],
    then: { lost: 700, note: 'Damping-off after the cold nights' },
  },
  {
    product: 'Hass Avocado Grafted Seedling in 2 L Bag',
    ready: { season: 'long-rains', at: 0.4 },
    growDays: 240,
    started: 1200,
    note: 'Grafted on Puebla rootstock, shade house 1',
    bookings: [{ who: 'barasa', unit: 'Single seedling', quantity: 200, deposit: true }],
  },
  {
    product: 'Grevillea robusta Tube Seedling',
    ready: { season: 'long-rains', at: 0.1 },
    growDays: 120,
    started: 20000,
    note: 'Tube beds 1 and 2',
    bookings: [{ who: 'akinyi', unit: 'Tray of 50 Tubes', quantity: 20 }],
  },
  {
    product: 'Croton megalocarpus Tube Seedling',
    ready: { season: 'long-rains', at: 0.7 },
    growDays: 150,
    started: 8000,
    note: 'Tube bed 3',
    bookings: [],
  },
  {
    product: 'Strawberry Chandler Plug Seedling',
    ready: { season: 'long-rains', at: 0.25 },
    growDays: 60,
    started: 6000,
    note: 'Runner beds',
    bookings: [],
  },
  {
    product: 'Eucalyptus grandis Tube Seedling',
    ready: { season: 'short-rains', at: 0.3 },
    growDays: 120,
    started: 15000,
    note: 'Tube bed 4',
    bookings: [],
  },
  {
    product: 'Macadamia Grafted in 2 L Bag',
    ready: { season: 'short-rains', at: 0.6 },
    growDays: 270,
    started: 800,
    note: 'Shade house 2',
    bookings: [],
  },
];

/** An M-Pesa code as the messages write them (a clerk reads it out for a deposit). */
export function demoMpesaCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
  return `S${[...randomBytes(9)].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

/**
 * Batches of seedlings still growing and bookings against them in each state: deposit due, booked
 * (deposits recorded by a clerk), balance due (a batch ready early), affected (a batch fallen
 * short). Every step through the services the staff's routes call, so stock, the batch ledger,
 * the money ledger and the audit trail are as the shop makes them. Skipped when batches exist.
 */
@Injectable()
export class BookingsSeeder implements Seeder {
  readonly name = 'bookings';

  constructor(private readonly moduleRef: ModuleRef) {}

  private get<T>(type: new (...args: never[]) => T): T {
    return this.moduleRef.get(type, { strict: false });
  }

  async seed(): Promise<string> {
    const desk = this.get(BatchDeskService);
    const before = (await desk.list({ limit: 1 })).total;
    if (before > 0) return `${before} batches already there; none added`;
    const { principal: staff } = await demoStaff(this.moduleRef);
    const products = await this.productsNamed(BATCH_PLANS.map((p) => p.product));
    const today = this.get(BatchesService).today();
    let batches = 0;
    let bookings = 0;
    for (const plan of BATCH_PLANS) {
      const product = products.get(plan.product);
      if (!product) continue;
      const readyOn = this.readyOn(plan.ready, today);
      const sownOn = minDay(addDays(readyOn, -plan.growDays), addDays(today, -7));
      const { batch } = await desk.create(staff, {
        productId: product._id,
        sownOn,
        readyOn,
        started: plan.started,
        note: plan.note,
      });
      batches++;
      for (const booking of plan.bookings)
        if (await this.book(staff, product, batch._id, booking)) bookings++;
      if (plan.then === 'ready') {
        await desk.update(staff, batch._id, { readyOn: today });
        await desk.markReady(staff, batch._id);
      } else if (plan.then) {
        await desk.recordLoss(staff, batch._id, {
          quantity: plan.then.lost,
          note: plan.then.note,
          reason: 'died',
        });
      }
    }
    return `${batches} batches and ${bookings} bookings added`;
  }

  /** Places a grower's booking on the batch and, when planned, records its deposit at the desk. */
  private async book(
    staff: Principal,
    product: { _id: string; units: SaleUnit[] },
    batchId: string,
    plan: BookingPlan,
  ): Promise<OrderRecord | null> {
    const unit = product.units.find((u) => u.name === plan.unit);
    if (!unit) return null;
    const { order } = await this.get(OrdersService).place(undefined, {
      guestInfo: GROWERS[plan.who],
      products: [{ _id: product._id, quantity: plan.quantity, unitId: unit._id, batchId }],
    });
    if (plan.deposit)
      await this.get(BookingsService).recordDeposit(staff, order._id, {
        amount: order.booking!.deposit,
        transactionCode: demoMpesaCode(),
      });
    return this.get(OrdersService).findAnyOrder(order._id);
  }

  /** The ready day: so many days from today, or its place among a coming season's ready days. */
  private readyOn(when: ReadyWhen, today: string): string {
    if ('inDays' in when) return addDays(today, when.inDays);
    const config = this.moduleRef.get<AppConfig>(APP_CONFIG, { strict: false });
    // A season's batch is three weeks off at least: a season nearly over gives next year's.
    const earliest = addDays(today, 21);
    let season = comingSeasons(config.bookings, today).find((s) => s.key === when.season)!;
    if (season.to < earliest)
      season = comingSeasons(config.bookings, addDays(season.to, 1)).find(
        (s) => s.key === when.season,
      )!;
    const from = season.readyFrom > earliest ? season.readyFrom : earliest;
    const span = daysBetween(from, season.to);
    return addDays(from, Math.round(span * when.at));
  }

  private async productsNamed(names: string[]) {
    const catalogue = this.get(CatalogReadModel);
    const found = new Map<string, { _id: string; units: SaleUnit[] }>();
    for (const name of names) {
      const { page } = await catalogue.list({
        page: 1,
        limit: 20,
        search: name,
      } as ProductListQueryDto);
      const product = page.products.find((p) => p.productName === name);
      if (product) found.set(name, product);
    }
    return found;
  }

  /** "13 batches (11 Growing, 1 Ready, 1 Sold out), 13 bookings (3 Deposit due, ...)" from the database. */
  async counts(): Promise<string> {
    const desk = this.get(BatchDeskService);
    const bookings = this.get(OrderBookings);
    const batches: string[] = [];
    let batchTotal = 0;
    for (const status of BATCH_STATUSES) {
      const { total } = await desk.list({ status, limit: 1 });
      batchTotal += total;
      if (total) batches.push(`${total} ${status}`);
    }
    const states: string[] = [];
    let bookingTotal = 0;
    for (const state of BOOKING_STATES) {
      const { total } = await bookings.inState(state, [...ORDER_STATUSES], { limit: 1 });
      bookingTotal += total;
      if (total) states.push(`${total} ${state}`);
    }
    return (
      `${batchTotal} batches (${batches.join(', ')}), ` +
      `${bookingTotal} bookings (${states.join(', ')})`
    );
  }
}

function minDay(a: string, b: string): string {
  return a < b ? a : b;
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
