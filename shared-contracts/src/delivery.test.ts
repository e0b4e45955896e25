import { deliveryLine, deliveryZoneFormSchema, NURSERY_COLLECTION } from './delivery';
import { orderChatMessage } from './order-chat';

const order = {
  purchaseNumber: 'SPD7K3MX9QA',
  products: [{ productName: 'Hass Avocado', quantity: 2, unitPrice: 350, lineTotal: 700 }],
  guestInfo: {
    fullName: 'Achieng Otieno',
    phoneNumber: '0722000111',
    county: 'Nairobi',
    subCounty: 'Westlands',
    streetAddress: 'Parklands',
  },
  estimatedDeliveryDate: '2026-11-25T08:00:00.000Z',
};

describe('delivery in the WhatsApp message', () => {
  it('names the zone, its fee, the total with it and the expected date', () => {
    const text = orderChatMessage({
      ...order,
      shippingFee: 300,
      totalAmount: 1000,
      delivery: { method: 'delivery', zoneName: 'Nairobi', days: 2 },
    });
    expect(text).toContain('Delivery (Nairobi): KES 300');
    expect(text).toContain('Total: KES 1,000');
    expect(text).toContain('Deliver to: Achieng Otieno, 0722000111, Parklands, Westlands, Nairobi');
    expect(text).toContain('Expected by: 2026-11-25');
  });

  it('says collection is free and where the nursery is', () => {
    const text = orderChatMessage({
      ...order,
      shippingFee: 0,
      totalAmount: 700,
      delivery: { method: 'collection', zoneName: NURSERY_COLLECTION.name, days: 1 },
    });
    expect(text).toContain('Collect at the nursery: free');
    expect(text).toContain(`Collect at: ${NURSERY_COLLECTION.address}`);
    expect(text).toContain('Ready from: 2026-11-25');
    expect(text).not.toContain('Deliver to:');
  });

  it('keeps the old blank shipping line for an order without delivery details', () => {
    expect(orderChatMessage({ ...order, totalAmount: 700 })).toContain('Shipping: ');
  });

  it('writes the fee in whole shillings with separators', () => {
    expect(deliveryLine({ method: 'delivery', zoneName: 'Kisumu', days: 4 }, 1500)).toBe(
      'Delivery (Kisumu): KES 1,500',
    );
  });
});

describe('delivery zone form', () => {
  const valid = {
    name: 'Nairobi',
    fee: 300,
    days: 2,
    restOfKenya: false,
    areas: [{ county: 'Nairobi' }],
  };

  it('accepts a zone with a place, a whole fee and days', () => {
    expect(deliveryZoneFormSchema.safeParse(valid).success).toBe(true);
  });

  it.each([
    [{ name: ' ' }, 'Zone name is required'],
    [{ fee: 10.5 }, 'Fee must be whole shillings'],
    [{ fee: -1 }, 'Fee must be between KES 0 and KES 50,000'],
    [{ days: 61 }, 'Days must be between 0 and 60'],
    [{ areas: [] }, 'Choose at least one county or sub-county'],
  ])('refuses %j with its message', (change, message) => {
    const result = deliveryZoneFormSchema.safeParse({ ...valid, ...change });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message).join(' | ')).toContain(message);
  });

  it('accepts a rest-of-Kenya zone without places', () => {
    expect(
      deliveryZoneFormSchema.safeParse({ ...valid, areas: [], restOfKenya: true }).success,
    ).toBe(true);
  });
});
