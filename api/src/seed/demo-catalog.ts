/**
 * The demo catalogue: the five collections of the home page and nursery stock a
 * Kiambu propagation centre sells, each variety in the sizes it is sold in: its seedlings by the
 * seedling and by the tray (sale units, the commonest tray with quantity tiers), its pots and bags as
 * products of their own. Everything is derived deterministically from the variety's name, so every
 * seeding produces the same catalogue.
 */

import type { PriceTier } from '@spc/shared-contracts';

/**
 * The five collections, each with the KRA eTIMS item classification its products are registered
 * under (UNSPSC-based: vegetable seedlings, flower seedlings, fruit trees, tree seedlings), so a
 * local eTIMS signs the demo's sales.
 */
export const DEMO_CATEGORIES = [
  {
    name: 'Vegetables',
    itemClassCode: '1015150000',
    description:
      'Vegetable seedlings in plug trays, raised from certified seed and hardened off for transplanting.',
    colour: '#2e7d32',
  },
  {
    name: 'Herbs and spices',
    itemClassCode: '1015150000',
    description:
      'Culinary and medicinal herbs and spice plants, in plugs and pots for kitchen gardens.',
    colour: '#7c8f1e',
  },
  {
    name: 'Flowers',
    itemClassCode: '1015190000',
    description: 'Bedding flowers, flowering shrubs, climbers and hedging for homes and compounds.',
    colour: '#c2185b',
  },
  {
    name: 'Fruits',
    itemClassCode: '1016150000',
    description:
      'Grafted and tissue-culture fruit trees, bananas and soft fruit from certified mother blocks.',
    colour: '#e65100',
  },
  {
    name: 'Forestry',
    itemClassCode: '1015200000',
    description:
      'Indigenous and exotic tree seedlings for woodlots, windbreaks, shade and farm forestry.',
    colour: '#4e342e',
  },
] as const;

export type DemoCategoryName = (typeof DEMO_CATEGORIES)[number]['name'];

interface Size {
  /** Appended to the variety's name (a product of its own), or the unit's name (a tray). */
  label: string;
  /** Price of this size relative to the variety's base price. */
  factor: number;
  note: string;
  /** Typical stock of this size, in pieces (in trays for a tray; a few are sold out). */
  stock: [number, number];
  /**
   * A tray of this many seedlings: not a product of its own but a sale unit of the variety's
   * seedlings (the `single` size, or a product named by the variety alone, sold by the seedling).
   */
  tray?: number;
  /** The variety's single seedling: the product its trays are units of. */
  single?: true;
  /** This unit (a tray, or a product's single seedling) has quantity price tiers. */
  tiers?: 'trays' | 'seedlings';
}

const SIZES = {
  tray: [
    {
      label: 'Tray of 25',
      factor: 0.55,
      note: 'A tray of 25 plug seedlings',
      stock: [10, 60],
      tray: 25,
    },
    {
      label: 'Tray of 50',
      factor: 1,
      note: 'A tray of 50 plug seedlings',
      stock: [10, 80],
      tray: 50,
      tiers: 'trays',
    },
    {
      label: 'Tray of 100',
      factor: 1.9,
      note: 'A tray of 100 plug seedlings',
      stock: [5, 50],
      tray: 100,
    },
    {
      label: 'Tray of 200',
      factor: 3.6,
      note: 'A tray of 200 plug seedlings',
      stock: [2, 30],
      tray: 200,
    },
  ],
  herb: [
    {
      label: 'Plug Seedling',
      factor: 0.35,
      note: 'A single plug seedling',
      stock: [20, 150],
      single: true,
    },
    {
      label: 'Tray of 50',
      factor: 10.5,
      note: 'A tray of 50 plug seedlings',
      stock: [2, 20],
      tray: 50,
      tiers: 'trays',
    },
    { label: 'in 10 cm Pot', factor: 1, note: 'One plant in a 10 cm pot', stock: [10, 90] },
    { label: 'in 15 cm Pot', factor: 1.8, note: 'One bushy plant in a 15 cm pot', stock: [5, 60] },
    { label: 'in 2 L Pot', factor: 3, note: 'A mature plant in a 2 litre pot', stock: [2, 30] },
  ],
  bedding: [
    { label: 'in 10 cm Pot', factor: 0.25, note: 'One plant in a 10 cm pot', stock: [10, 120] },
    {
      label: 'Tray of 24',
      factor: 1,
      note: 'A tray of 24 bedding plants',
      stock: [5, 60],
      tray: 24,
      tiers: 'trays',
    },
    {
      label: 'Tray of 48',
      factor: 1.85,
      note: 'A tray of 48 bedding plants',
      stock: [3, 40],
      tray: 48,
    },
    {
      label: 'Hanging Basket',
      factor: 1.7,
      note: 'A planted 30 cm hanging basket',
      stock: [2, 20],
    },
  ],
  shrub: [
    { label: 'in 1 L Pot', factor: 1, note: 'A rooted cutting in a 1 litre pot', stock: [10, 80] },
    { label: 'in 3 L Pot', factor: 2.2, note: 'A bushy plant in a 3 litre pot', stock: [5, 50] },
    {
      label: 'in 5 L Pot',
      factor: 3.5,
      note: 'A well-branched plant in a 5 litre pot',
      stock: [3, 30],
    },
    { label: 'in 10 L Pot', factor: 6, note: 'A specimen plant in a 10 litre pot', stock: [1, 15] },
  ],
  fruitTree: [
    {
      label: 'in 2 L Bag',
      factor: 1,
      note: 'A young grafted tree in a 2 litre bag',
      stock: [10, 120],
      tiers: 'seedlings',
    },
    {
      label: 'in 5 L Pot',
      factor: 2,
      note: 'A sturdy grafted tree in a 5 litre pot',
      stock: [5, 60],
    },
    {
      label: 'in 10 L Pot',
      factor: 3.5,
      note: 'A branched tree in a 10 litre pot',
      stock: [2, 30],
    },
    {
      label: 'in 20 L Pot (Fruiting Age)',
      factor: 6,
      note: 'A fruiting-age tree in a 20 litre pot',
      stock: [1, 12],
    },
  ],
  banana: [
    {
      label: 'Hardened Plantlet',
      factor: 1,
      note: 'A hardened tissue-culture plantlet',
      stock: [20, 200],
    },
    { label: 'in 2 L Bag', factor: 1.6, note: 'A weaned plant in a 2 litre bag', stock: [10, 100] },
    {
      label: 'in 5 L Pot',
      factor: 2.6,
      note: 'A field-ready plant in a 5 litre pot',
      stock: [5, 40],
    },
  ],
  softFruit: [
    { label: 'Plug Seedling', factor: 1, note: 'One rooted plug', stock: [20, 200], single: true },
    {
      label: 'in 10 cm Pot',
      factor: 2,
      note: 'One established plant in a 10 cm pot',
      stock: [10, 100],
    },
    {
      label: 'Tray of 24',
      factor: 14,
      note: 'A tray of 24 rooted plugs',
      stock: [3, 30],
      tray: 24,
    },
    {
      label: 'Tray of 50',
      factor: 26,
      note: 'A tray of 50 rooted plugs',
      stock: [2, 20],
      tray: 50,
      tiers: 'trays',
    },
  ],
  tree: [
    {
      label: 'Tube Seedling',
      factor: 1,
      note: 'One seedling in a planting tube',
      stock: [50, 500],
      single: true,
      tiers: 'seedlings',
    },
    {
      label: 'Tray of 50 Tubes',
      factor: 40,
      note: 'Fifty seedlings in planting tubes',
      stock: [5, 60],
      tray: 50,
      tiers: 'trays',
    },
    { label: 'in 2 L Bag', factor: 3, note: 'One seedling in a 2 litre bag', stock: [20, 200] },
    {
      label: 'in 10 L Bag (1 m)',
      factor: 10,
      note: 'A one-metre sapling in a 10 litre bag',
      stock: [2, 40],
    },
  ],
} satisfies Record<string, Size[]>;

type SizeScheme = keyof typeof SIZES;

interface Variety {
  name: string;
  about: string;
  /** KES of the scheme's reference size (factor 1). */
  base: number;
  sizes: SizeScheme;
  /** Leaf or fruit colour on the generated picture. */
  accent: string;
}

const V = (name: string, base: number, accent: string, about: string): Omit<Variety, 'sizes'> => ({
  name,
  base,
  accent,
  about,
});
const withSizes = (sizes: SizeScheme, list: Omit<Variety, 'sizes'>[]): Variety[] =>
  list.map((variety) => ({ ...variety, sizes }));

const VARIETIES: Record<DemoCategoryName, Variety[]> = {
  Vegetables: withSizes('tray', [
    V(
      'Sukuma Wiki (Collard)',
      150,
      '#2e7d32',
      'The everyday Kenyan green; picks for months from one planting.',
    ),
    V(
      'Kale Thousand Headed',
      160,
      '#388e3c',
      'Hardy, high-yielding kale that keeps producing side shoots.',
    ),
    V(
      'Cabbage Gloria F1',
      320,
      '#81c784',
      'Uniform 3–4 kg heads with good field holding; tolerant of black rot.',
    ),
    V(
      'Cabbage Copenhagen Market',
      220,
      '#a5d6a7',
      'Early, round heads of about 2 kg; a reliable open-pollinated variety.',
    ),
    V(
      'Spinach Fordhook Giant',
      150,
      '#1b5e20',
      'Large, thick, crinkled leaves; slow to bolt in the Kiambu highlands.',
    ),
    V(
      'Swiss Chard Ford Hook',
      160,
      '#43a047',
      'Broad leaves on white stalks; picks again and again.',
    ),
    V(
      'Tomato Anna F1',
      650,
      '#e53935',
      'Indeterminate greenhouse tomato with firm, long-keeping fruit.',
    ),
    V(
      'Tomato Rio Grande',
      260,
      '#d32f2f',
      'Determinate open-field tomato with firm, oval fruit for the market.',
    ),
    V(
      'Tomato Kilele F1',
      600,
      '#c62828',
      'Vigorous hybrid with strong tolerance to TYLCV; heavy setter.',
    ),
    V(
      'Grafted Tomato (Anna F1 on Hardy Rootstock)',
      800,
      '#b71c1c',
      'Grafted onto a wilt-resistant rootstock for soils with bacterial wilt.',
    ),
    V(
      'Capsicum California Wonder',
      280,
      '#43a047',
      'Blocky, thick-walled green peppers turning red when ripe.',
    ),
    V(
      'Capsicum Maxibell F1',
      550,
      '#f9a825',
      'High-yielding hybrid bell pepper for greenhouse or open field.',
    ),
    V(
      'Chilli Long Cayenne',
      240,
      '#d84315',
      'Slim, hot, red chillies; dries well for sale or home use.',
    ),
    V(
      'Chilli Habanero',
      300,
      '#ff6f00',
      'Very hot, aromatic lantern-shaped fruit; strong export demand.',
    ),
    V('Onion Red Creole', 180, '#8e24aa', 'Pungent red bulbs that store for months after curing.'),
    V(
      'Onion Red Bombay',
      170,
      '#6a1b9a',
      'Medium red bulbs; the popular market onion in East Africa.',
    ),
    V(
      'Lettuce Great Lakes',
      170,
      '#9ccc65',
      'Crisp iceberg heads that hold well in cool highland weather.',
    ),
    V(
      'Broccoli Green Sprouting',
      260,
      '#2e7d32',
      'Central heads followed by tender side shoots for weeks.',
    ),
    V('Cauliflower Snowball', 280, '#eeeeee', 'Compact, pure white curds; best in cool seasons.'),
    V('Brinjal Black Beauty', 220, '#4a148c', 'Glossy, deep purple eggplants on sturdy plants.'),
    V(
      'Managu (African Nightshade)',
      160,
      '#33691e',
      'Nutritious traditional leafy vegetable; improved broad-leaf selection.',
    ),
    V(
      'Terere (Amaranth)',
      140,
      '#ad1457',
      'Fast-growing traditional leafy vegetable; first harvest in 3 weeks.',
    ),
    V(
      'Saget (Spider Plant)',
      150,
      '#558b2f',
      'Traditional leafy vegetable rich in iron; pick young leaves.',
    ),
    V(
      'Kunde (Cowpea Leaves)',
      140,
      '#689f38',
      'Leafy cowpea for tender greens and a pod harvest later.',
    ),
    V('Leek Giant Musselburgh', 200, '#aed581', 'Thick, hardy stems with a mild onion flavour.'),
    V('Celery Tall Utah', 220, '#7cb342', 'Crisp, stringless stalks for fresh markets and hotels.'),
    V('Butternut Waltham', 260, '#ffb300', 'Sweet, long-keeping butternut squash; vigorous vines.'),
  ]),
  'Herbs and spices': withSizes('herb', [
    V(
      'Rosemary',
      150,
      '#5d7f3a',
      'Aromatic evergreen herb for roasts and teas; drought tolerant once established.',
    ),
    V(
      'Thyme',
      130,
      '#6b8e23',
      'Low, fragrant herb for stews and marinades; loves sun and good drainage.',
    ),
    V('Spearmint', 100, '#43a047', 'Fresh mint for chai, juices and salads; spreads quickly.'),
    V('Peppermint', 110, '#2e7d32', 'Strong menthol mint for teas; keep it moist.'),
    V('Sweet Basil Genovese', 110, '#388e3c', 'Large, sweet leaves for pesto and tomato dishes.'),
    V('Thai Basil', 120, '#6a1b9a', 'Anise-scented basil with purple stems for Asian dishes.'),
    V(
      'Tulsi (Holy Basil)',
      130,
      '#7b1fa2',
      'Sacred basil valued for its clove-scented leaves and tea.',
    ),
    V('Dhania (Coriander)', 90, '#66bb6a', 'Kenya’s favourite garnish; slow-bolting selection.'),
    V(
      'Parsley Curled',
      110,
      '#2e7d32',
      'Decorative curled parsley for garnish; cut and come again.',
    ),
    V('Parsley Italian Flat-leaf', 110, '#388e3c', 'Full-flavoured flat parsley for cooking.'),
    V('Oregano', 130, '#558b2f', 'Pungent Mediterranean herb for pizza and grills.'),
    V('Sage', 140, '#90a4ae', 'Soft grey-green leaves for stuffing and herbal tea.'),
    V(
      'Lemongrass',
      120,
      '#9ccc65',
      'Lemon-scented clumping grass for tea and curries; also repels mosquitoes.',
    ),
    V('Lemon Balm', 120, '#8bc34a', 'Calming, lemon-scented leaves for tea.'),
    V('Chives', 100, '#4caf50', 'Mild onion-flavoured leaves and edible purple flowers.'),
    V('Fennel', 120, '#aed581', 'Feathery leaves and aniseed seeds; attracts beneficial insects.'),
    V('Dill', 100, '#9ccc65', 'Feathery herb for fish, pickles and salads.'),
    V('Stevia', 180, '#66bb6a', 'Natural sweetener; leaves are many times sweeter than sugar.'),
    V(
      'Moringa',
      120,
      '#7cb342',
      'Fast-growing “miracle tree”; nutritious leaves for powder and tea.',
    ),
    V(
      'Ginger',
      150,
      '#c0a060',
      'Rooted rhizome pieces sprouted in the nursery, ready for beds or sacks.',
    ),
    V('Turmeric', 160, '#f9a825', 'Sprouted rhizomes of a high-curcumin selection.'),
    V(
      'Black Pepper Vine',
      350,
      '#33691e',
      'Rooted cuttings of the pepper vine for humid coastal and lakeside gardens.',
    ),
    V(
      'Curry Leaf (Murraya koenigii)',
      250,
      '#2e7d32',
      'Aromatic leaves essential to Swahili and Indian cooking.',
    ),
    V(
      'Lavender (English)',
      200,
      '#7e57c2',
      'Fragrant flower spikes for oils and sachets; loves dry, sunny spots.',
    ),
    V('Chamomile', 110, '#fdd835', 'Daisy-like flowers for a gentle, calming tea.'),
  ]),
  Flowers: [
    ...withSizes('bedding', [
      V(
        'African Marigold',
        300,
        '#fb8c00',
        'Big orange and yellow pompom flowers; repels nematodes in vegetable beds.',
      ),
      V('French Marigold', 280, '#ef6c00', 'Compact, free-flowering marigold for edging.'),
      V('Petunia Mixed', 420, '#ab47bc', 'Trumpet flowers in mixed colours all season.'),
      V('Zinnia Mixed', 300, '#e91e63', 'Bright, long-lasting flowers that butterflies love.'),
      V('Snapdragon Mixed', 360, '#f06292', 'Tall spikes of colourful flowers for beds and vases.'),
      V('Salvia Red', 340, '#d32f2f', 'Scarlet flower spikes from planting until the rains end.'),
      V(
        'Impatiens (Busy Lizzie)',
        380,
        '#ec407a',
        'Shade-loving bedding plant that flowers non-stop.',
      ),
      V(
        'Periwinkle (Vinca)',
        320,
        '#f48fb1',
        'Heat- and drought-tolerant bedding with glossy leaves.',
      ),
      V(
        'Gerbera Daisy',
        650,
        '#ff7043',
        'Large daisy flowers on long stems; excellent cut flowers.',
      ),
      V(
        'Chrysanthemum Mixed',
        500,
        '#ffca28',
        'Cushion mums with masses of autumn-coloured blooms.',
      ),
    ]),
    ...withSizes('shrub', [
      V(
        'Hybrid Tea Rose (Red)',
        350,
        '#c62828',
        'Budded rose with classic long-stemmed red blooms.',
      ),
      V(
        'Hybrid Tea Rose (Yellow)',
        350,
        '#fbc02d',
        'Budded rose with fragrant golden-yellow blooms.',
      ),
      V(
        'Bougainvillea (Magenta)',
        250,
        '#ad1457',
        'Vigorous, drought-hardy climber with brilliant bracts.',
      ),
      V(
        'Bougainvillea (Orange)',
        260,
        '#f57c00',
        'Orange-bracted bougainvillea for fences and pergolas.',
      ),
      V('Hibiscus (Red)', 220, '#e53935', 'Large red flowers nearly all year; good for hedges.'),
      V('Ixora (Red)', 240, '#d84315', 'Clusters of red star flowers on a compact shrub.'),
      V(
        'Golden Duranta',
        120,
        '#c0ca33',
        'Bright lime-gold foliage; Kenya’s favourite clipped hedge.',
      ),
      V(
        'Croton (Petra)',
        260,
        '#ff8f00',
        'Bold, multicoloured leaves for colour in shade and sun.',
      ),
      V('Star Jasmine', 280, '#f5f5f5', 'Evergreen climber with sweetly scented white flowers.'),
      V(
        'Agapanthus (Blue)',
        220,
        '#5c6bc0',
        'Globes of blue flowers over strap leaves; very hardy.',
      ),
      V('Canna Lily', 200, '#ff5722', 'Tropical-looking foliage and bold flowers; loves water.'),
      V(
        'Bird of Paradise (Strelitzia)',
        450,
        '#ff9800',
        'Striking orange and blue flowers; a long-lived clump.',
      ),
      V(
        'Desert Rose (Adenium)',
        400,
        '#e91e63',
        'Succulent with a swollen trunk and pink trumpet flowers.',
      ),
      V(
        'Lantana (Mixed)',
        150,
        '#ffb300',
        'Tough, butterfly-friendly shrub flowering in all seasons.',
      ),
      V('Allamanda (Golden Trumpet)', 260, '#fdd835', 'Climber with big golden trumpet flowers.'),
      V('Aloe vera', 180, '#66bb6a', 'Medicinal succulent; the gel soothes burns and skin.'),
    ]),
  ],
  Fruits: [
    ...withSizes('fruitTree', [
      V(
        'Hass Avocado Grafted Seedling',
        300,
        '#33691e',
        'Kenya’s leading export avocado, grafted on a hardy rootstock; fruits in about 3 years.',
      ),
      V(
        'Fuerte Avocado Grafted Seedling',
        280,
        '#558b2f',
        'Pear-shaped, smooth-skinned avocado; a good pollinator for Hass.',
      ),
      V(
        'Pinkerton Avocado Grafted Seedling',
        290,
        '#2e7d32',
        'Long-necked fruit with small seed; heavy and regular bearer.',
      ),
      V(
        'Apple Mango Grafted Seedling',
        320,
        '#f9a825',
        'Round, sweet, fibreless mango loved in Kenyan markets.',
      ),
      V(
        'Ngowe Mango Grafted Seedling',
        300,
        '#fbc02d',
        'Coastal favourite with long, aromatic, juicy fruit.',
      ),
      V(
        'Kent Mango Grafted Seedling',
        330,
        '#e65100',
        'Large, late-season export mango with little fibre.',
      ),
      V(
        'Tommy Atkins Mango Grafted Seedling',
        320,
        '#d84315',
        'Colourful, firm mango that travels well.',
      ),
      V(
        'Macadamia Grafted',
        350,
        '#8d6e63',
        'Grafted macadamia (Murang’a 20) for high nut yields; bears in 4 years.',
      ),
      V(
        'Washington Navel Orange Grafted',
        300,
        '#fb8c00',
        'Seedless, sweet navel orange on rough lemon rootstock.',
      ),
      V('Valencia Orange Grafted', 290, '#ef6c00', 'Juicy late-season orange, ideal for juice.'),
      V(
        'Pixie Tangerine Grafted',
        300,
        '#ff9800',
        'Seedless, easy-peel tangerine for highland gardens.',
      ),
      V('Eureka Lemon Grafted', 280, '#fdd835', 'Productive lemon that fruits almost all year.'),
      V('Tahiti Lime Grafted', 280, '#9ccc65', 'Seedless, juicy lime; vigorous and thornless.'),
      V(
        'Anna Apple Grafted',
        380,
        '#e53935',
        'Low-chill apple that fruits in the Kenyan highlands; pair with Golden Dorsett.',
      ),
      V(
        'Golden Dorsett Apple Grafted',
        380,
        '#fdd835',
        'Low-chill pollinator for Anna with sweet yellow fruit.',
      ),
      V(
        'Purple Passion Fruit Grafted',
        150,
        '#6a1b9a',
        'Grafted on yellow passion rootstock to resist Fusarium wilt.',
      ),
      V(
        'Pawpaw Solo Sunrise',
        120,
        '#ff7043',
        'Compact, sweet, red-fleshed papaya; bears within a year.',
      ),
      V(
        'Pomegranate Wonderful',
        300,
        '#b71c1c',
        'Large, deep red fruit with tangy arils; drought tolerant.',
      ),
      V('Pink Guava', 220, '#f48fb1', 'Sweet pink-fleshed guava; hardy and productive.'),
      V(
        'Tree Tomato (Tamarillo)',
        120,
        '#c62828',
        'Fast-fruiting tree tomato for juice; fruits in 18 months.',
      ),
    ]),
    ...withSizes('banana', [
      V(
        'Tissue Culture Banana (Williams)',
        150,
        '#fdd835',
        'Disease-free Cavendish-type dessert banana from tissue culture.',
      ),
      V(
        'Tissue Culture Banana (Grand Nain)',
        150,
        '#ffeb3b',
        'Tall, high-yielding dessert banana with long fingers.',
      ),
      V(
        'Tissue Culture Banana (Giant Cavendish)',
        150,
        '#fff176',
        'Heavy bunches of sweet dessert bananas.',
      ),
      V("Tissue Culture Banana (Ng'ombe)", 160, '#9e9d24', 'Cooking banana prized for matoke.'),
      V(
        'Tissue Culture Banana (FHIA 17)',
        160,
        '#c0ca33',
        'Hardy dual-purpose banana resistant to black Sigatoka.',
      ),
    ]),
    ...withSizes('softFruit', [
      V(
        'Strawberry Chandler',
        25,
        '#e53935',
        'Large, sweet, day-neutral strawberry for beds and towers.',
      ),
      V('Strawberry Festival', 25, '#d32f2f', 'Firm, glossy berries with good shelf life.'),
      V(
        'Cape Gooseberry',
        40,
        '#ffb300',
        'Golden berries in papery husks; sweet-tart and high in vitamin C.',
      ),
      V('Thornless Blackberry', 80, '#311b92', 'Thornless canes with large, sweet berries.'),
      V(
        'Raspberry Heritage',
        80,
        '#c2185b',
        'Autumn-fruiting raspberry for cool highland gardens.',
      ),
    ]),
  ],
  Forestry: withSizes('tree', [
    V(
      'Grevillea robusta',
      30,
      '#558b2f',
      'Silky oak: the classic farm tree for timber, firewood and shade over coffee and tea.',
    ),
    V(
      'Eucalyptus grandis',
      25,
      '#78909c',
      'Fast-growing gum for poles, timber and fuel; plant away from water sources.',
    ),
    V(
      'Eucalyptus saligna',
      25,
      '#90a4ae',
      'Straight-stemmed gum for building poles and transmission posts.',
    ),
    V(
      'Cupressus lusitanica (Cypress)',
      30,
      '#2e7d32',
      'Cypress for timber plantations and dense windbreaks.',
    ),
    V('Pinus patula (Pine)', 30, '#1b5e20', 'Highland pine for softwood timber and pulp.'),
    V(
      'Croton megalocarpus',
      40,
      '#6d4c41',
      'Indigenous tree for shade and biofuel nuts; drought tolerant.',
    ),
    V(
      'Melia volkensii (Mukau)',
      60,
      '#8d6e63',
      'Drought-hardy indigenous hardwood for dryland timber.',
    ),
    V(
      'Markhamia lutea (Siala)',
      45,
      '#fdd835',
      'Indigenous tree with yellow flowers; poles and timber.',
    ),
    V(
      'Cordia africana (Mukumari)',
      50,
      '#f5f5f5',
      'Indigenous hardwood with white flowers; valued for furniture.',
    ),
    V(
      'Prunus africana (Mueri)',
      60,
      '#4e342e',
      'Indigenous medicinal tree of the highland forests.',
    ),
    V(
      'Podocarpus falcatus (Podo)',
      70,
      '#33691e',
      'Slow-growing indigenous conifer for quality timber.',
    ),
    V(
      'Juniperus procera (African Pencil Cedar)',
      60,
      '#2e7d32',
      'Indigenous cedar with durable, fragrant timber.',
    ),
    V(
      'Casuarina equisetifolia',
      30,
      '#689f38',
      'Nitrogen-fixing windbreak tree; tolerates salty soils.',
    ),
    V(
      'Vachellia xanthophloea (Yellow Fever Tree)',
      50,
      '#cddc39',
      'Indigenous acacia with striking yellow bark.',
    ),
    V(
      'Calliandra calothyrsus',
      25,
      '#e91e63',
      'Fodder shrub for dairy cows; fixes nitrogen and feeds bees.',
    ),
    V('Leucaena leucocephala', 25, '#7cb342', 'Fast fodder and fuel tree; fixes nitrogen.'),
    V(
      'Jacaranda mimosifolia',
      50,
      '#7e57c2',
      'The Nairobi avenue tree with purple spring flowers.',
    ),
    V(
      'Nandi Flame (Spathodea campanulata)',
      50,
      '#ff5722',
      'Ornamental shade tree with flame-orange flowers.',
    ),
    V(
      'Meru Oak (Vitex keniensis)',
      70,
      '#5d4037',
      'Indigenous hardwood for furniture and joinery.',
    ),
    V(
      'Bamboo (Dendrocalamus giganteus)',
      80,
      '#8bc34a',
      'Giant clumping bamboo for poles, furniture and riverbank protection.',
    ),
    V(
      'Terminalia mantaly',
      60,
      '#43a047',
      'Tiered ornamental shade tree for compounds and parking.',
    ),
    V(
      'Bottlebrush (Callistemon)',
      50,
      '#d32f2f',
      'Evergreen with red brush flowers; loved by birds and bees.',
    ),
    V(
      'African Olive (Olea africana)',
      60,
      '#827717',
      'Indigenous, long-lived tree for hardwood and shade.',
    ),
    V('Gmelina arborea', 40, '#a1887f', 'Fast-growing timber tree for warm, lower zones.'),
    V('Sesbania sesban', 25, '#fbc02d', 'Fast nitrogen-fixing tree for soil fertility and fodder.'),
  ]),
};

/** A unit of a demo product beyond its single seedling: a tray, with its price, offer and tiers. */
export interface DemoUnit {
  name: string;
  seedlings: number;
  price: number;
  /** 0: no offer. */
  offerPrice: number;
  tiers: PriceTier[];
}

/** One product of the demo catalogue. */
export interface DemoProduct {
  productName: string;
  productDescription: string;
  category: DemoCategoryName;
  /** The single seedling's price and offer (the product's own). */
  price: number;
  onOffer: boolean;
  offerPrice: number;
  /** Tiers of the single seedling (none for most). */
  tiers: PriceTier[];
  /** The trays it is also sold by, as units of the product (none for most). */
  trays: DemoUnit[];
  /** In seedlings. */
  productQuantity: number;
  /** Shared by a variety's sizes: the picture is drawn once per variety. */
  variety: string;
  accent: string;
}

/** FNV-1a: a stable number from a name, to draw stock and offers the same way on every run. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A deterministic fraction in [0, 1) for `name` and `salt`. */
function fraction(name: string, salt: string): number {
  return hash(`${salt}:${name}`) / 2 ** 32;
}

/** Shop prices: multiples of 5 below KES 100, of 10 below 1,000, of 50 above; KES 20 to 3,500. */
export function shopPrice(raw: number): number {
  const step = raw < 100 ? 5 : raw < 1000 ? 10 : 50;
  return Math.min(3500, Math.max(20, Math.round(raw / step) * step));
}

const CLOSING = [
  'Raised at our propagation centre in Kiambu and hardened off before sale.',
  'Grown from certified material and checked for pests and disease before dispatch.',
  'Ready to plant; our staff will advise on spacing and care when you collect.',
  'Water well after planting and shade lightly for the first week.',
];

const SIZE_ADVICE: Record<SizeScheme, string> = {
  tray: 'Four to five weeks old and ready to transplant.',
  herb: 'Ideal for kitchen gardens, balconies and sunny windowsills.',
  bedding: 'Plant 20–30 cm apart in full sun for a sheet of colour.',
  shrub: 'Give it full sun and a deep planting hole with manure.',
  fruitTree: 'Plant in a hole 60 cm deep with well-rotted manure; keep the graft above the soil.',
  banana: 'Plant in a manured pit of 60 cm by 60 cm and mulch heavily.',
  softFruit: 'Plant in raised beds or towers with plenty of compost.',
  tree: 'Plant at the start of the rains; protect from livestock for the first year.',
};

/** A single seedling bought loose costs this much more than one in a tray of 50 (or 24). */
const LOOSE_MARKUP = 1.6;

/** A seedling's price: whole shillings below KES 20, the shop's steps above. */
function seedlingPrice(raw: number): number {
  return raw < 20 ? Math.max(2, Math.ceil(raw)) : shopPrice(raw);
}

/** A tier's price: rounded down to whole shillings (10s from 100, 50s from 1,000). */
function tierPrice(raw: number): number {
  const step = raw < 100 ? 1 : raw < 1000 ? 10 : 50;
  return Math.max(1, Math.floor(raw / step) * step);
}

/** Trays: from 5, 10 or 20 trays; seedlings (tubes, bags): from 50, 100 or 500. */
const TIER_PLANS = {
  trays: { three: [5, 10, 20], two: [10, 25] },
  seedlings: { three: [50, 100, 500], two: [100, 500] },
} as const;

/**
 * Two or three quantity tiers, a few per cent cheaper each (which, and how many, drawn from the
 * name): each strictly cheaper than the price before it, as the product form requires.
 */
function tiersOf(name: string, price: number, plan: 'trays' | 'seedlings'): PriceTier[] {
  const three = fraction(name, 'tiers') < 0.4;
  const quantities = three ? TIER_PLANS[plan].three : TIER_PLANS[plan].two;
  const discounts = three ? [0.95, 0.9, 0.85] : [0.93, 0.86];
  const tiers: PriceTier[] = [];
  let before = price;
  quantities.forEach((minQuantity, i) => {
    let tierAt = tierPrice(price * discounts[i]!);
    if (tierAt >= before) tierAt = before - 1;
    if (tierAt >= 1) tiers.push({ minQuantity, price: tierAt });
    before = tierAt;
  });
  return tiers;
}

/** Some sizes are on offer: 17 % of those from KES 40, at 10-25 % off. */
function offerOf(name: string, price: number): number {
  if (price < 40 || fraction(name, 'offer') >= 0.17) return 0;
  const discount = 0.75 + 0.15 * fraction(name, 'discount');
  return Math.min(price - 5, shopPrice(price * discount));
}

function stockOf(name: string, [low, high]: [number, number]): number {
  return low + Math.floor(fraction(name, 'stock') * (high - low + 1));
}

const describe = (variety: Variety, note: string, name: string) =>
  [
    variety.about,
    `${note}. ${SIZE_ADVICE[variety.sizes]}`,
    CLOSING[hash(name) % CLOSING.length],
  ].join(' ');

/**
 * A variety's seedlings as one product, sold by the seedling and by its trays (sale units): the
 * single seedling is the `single` size, or (a variety sold only in trays) a product named by the
 * variety alone, priced as a seedling of its commonest tray with a loose markup. Its stock, in
 * seedlings, is what the single and the trays held.
 */
function seedlingsProduct(
  category: DemoCategoryName,
  variety: Variety,
  sizes: Size[],
): DemoProduct {
  const single = sizes.find((s) => s.single);
  const trays = sizes.filter((s) => s.tray);
  const productName = single ? `${variety.name} ${single.label}` : variety.name;
  const reference = trays.find((t) => t.tiers) ?? trays[0]!;
  const price = single
    ? shopPrice(variety.base * single.factor)
    : seedlingPrice(((variety.base * reference.factor) / reference.tray!) * LOOSE_MARKUP);
  const offerPrice = offerOf(productName, price);
  const units: DemoUnit[] = trays.map((tray) => {
    const unitName = `${variety.name} ${tray.label}`;
    const trayPrice = shopPrice(variety.base * tray.factor);
    return {
      name: tray.label,
      seedlings: tray.tray!,
      price: trayPrice,
      offerPrice: offerOf(unitName, trayPrice),
      tiers: tray.tiers ? tiersOf(unitName, trayPrice, 'trays') : [],
    };
  });
  const soldOut = fraction(productName, 'sold-out') < 0.07;
  const seedlings =
    (single ? stockOf(productName, single.stock) : 0) +
    trays.reduce((n, t) => n + stockOf(`${variety.name} ${t.label}`, t.stock) * t.tray!, 0);
  const note = single
    ? `${single.note}, or trays of ${trays.map((t) => t.tray).join(', ')}`
    : `Sold by the seedling or in trays of ${trays.map((t) => t.tray).join(', ')}`;
  return {
    productName,
    productDescription: describe(variety, note, productName),
    category,
    price,
    onOffer: offerPrice > 0,
    offerPrice,
    tiers: single?.tiers === 'seedlings' ? tiersOf(productName, price, 'seedlings') : [],
    trays: units,
    productQuantity: soldOut ? 0 : seedlings,
    variety: variety.name,
    accent: variety.accent,
  };
}

/**
 * Every product of the demo catalogue, in a stable order that mixes categories and varieties, so
 * the newest-first list (and the home page's featured grid) does not open on one variety's sizes.
 * A variety's trays are sale units of its seedlings, never products of their own.
 */
export function demoProducts(): DemoProduct[] {
  const products: DemoProduct[] = [];
  for (const { name: category } of DEMO_CATEGORIES) {
    for (const variety of VARIETIES[category]) {
      const sizes = SIZES[variety.sizes] as Size[];
      if (sizes.some((s) => s.tray)) products.push(seedlingsProduct(category, variety, sizes));
      for (const size of sizes) {
        if (size.tray || size.single) continue;
        const productName = `${variety.name} ${size.label}`;
        const price = shopPrice(variety.base * size.factor);
        const offerPrice = offerOf(productName, price);
        const soldOut = fraction(productName, 'sold-out') < 0.07;
        products.push({
          productName,
          productDescription: describe(variety, size.note, productName),
          category,
          price,
          onOffer: offerPrice > 0,
          offerPrice,
          tiers: size.tiers === 'seedlings' ? tiersOf(productName, price, 'seedlings') : [],
          trays: [],
          productQuantity: soldOut ? 0 : stockOf(productName, size.stock),
          variety: variety.name,
          accent: variety.accent,
        });
      }
    }
  }
  return products.sort((a, b) => hash(a.productName) - hash(b.productName));
}
