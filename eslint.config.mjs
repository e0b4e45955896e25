// One lint configuration for the whole workspace: TypeScript rules everywhere, React hooks rules in
// the two apps, Nx module boundaries so the arrows stay one way, and Prettier owning formatting.
import path from 'node:path';
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * The feature folders of both apps stay independent: a file under `src/features/<name>/` may not
 * import from another feature's folder. What two features share goes to `components/` or `lib/`.
 */
const noCrossFeatureImports = {
  meta: {
    type: 'problem',
    messages: {
      crossFeature:
        "The feature '{{from}}' imports from the feature '{{to}}'; move what they share to components/ or lib/.",
    },
    schema: [],
  },
  create(context) {
    const FEATURE = /[\\/](storefront|backoffice)[\\/]src[\\/]features[\\/]([^\\/]+)[\\/]/;
    const own = FEATURE.exec(context.filename);
    if (!own) return {};
    const check = (node) => {
      const source = node?.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = FEATURE.exec(path.resolve(path.dirname(context.filename), source) + path.sep);
      if (target && target[1] === own[1] && target[2] !== own[2])
        context.report({ node, messageId: 'crossFeature', data: { from: own[2], to: target[2] } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/**
 * The API's floors, bottom first: a module (a folder of api/src; `app` is the files directly in it,
 * the wiring) imports from its own floor and the floors below, never from a floor above. What two
 * floors share goes down to the lower one. A new folder is placed here before it can be imported
 * or import anything. The table is the rule: there is no list of exceptions.
 */
const API_FLOORS = [
  // Settings, read once from the environment.
  ['config'],
  // The shared mechanisms: the shop clock, quotas, leases, validation, personal keys, the scheduler.
  ['common'],
  // Services every module uses: files (and scanned papers), e-mail, the audit trail, places.
  ['storage', 'scans', 'mail', 'audit', 'locations'],
  // Accounts and the money ledger: data the floors above build on.
  ['users', 'money'],
  // The shop's own data and the routes on it; eTIMS signing (the selling floor above queues its
  // documents, it reads the catalogue's tax types beside it).
  [
    'etims',
    'auth',
    'staff',
    'catalog',
    'inventory',
    'delivery',
    'contact',
    'site',
    'health',
    'organisations',
  ],
  // Selling: orders, bookings and their batches, quotations, the tranches orders are delivered
  // in, the invoices that bill them, and the text messages about them.
  ['orders', 'batches', 'bookings', 'sms', 'quotations', 'tranches', 'invoices'],
  // Money coming in: M-Pesa Express, the paybill, refunds; the gate's till (it prompts M-Pesa).
  ['payments', 'till'],
  // What reads across the shop: reports, customers' data (export, erasure).
  ['reports', 'privacy'],
  // Wiring and the things run by hand.
  ['app', 'seed', 'scripts'],
];

/** An api/src import that runs up the floors of API_FLOORS. */
const apiFloors = {
  meta: {
    type: 'problem',
    messages: {
      upward:
        "'{{from}}' (floor {{fromFloor}}) imports from '{{to}}' (floor {{toFloor}}), a floor above it; move what they share down (API_FLOORS, eslint.config.mjs).",
      unplaced:
        "The API module '{{module}}' has no floor: add it to API_FLOORS (eslint.config.mjs).",
    },
    schema: [],
  },
  create(context) {
    const SRC = /[\\/]api[\\/]src[\\/](.*)$/;
    const moduleOf = (file) => {
      const rest = SRC.exec(file)?.[1];
      if (rest === undefined) return undefined;
      const parts = rest.split(/[\\/]/);
      return parts.length > 1 ? parts[0] : 'app';
    };
    const floorOf = (module) => API_FLOORS.findIndex((floor) => floor.includes(module));
    const from = moduleOf(context.filename);
    if (!from) return {};
    const fromFloor = floorOf(from);
    const check = (node) => {
      const source = node?.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = moduleOf(path.resolve(path.dirname(context.filename), source));
      if (!to || to === from) return;
      const toFloor = floorOf(to);
      for (const module of [from, to].filter((m) => floorOf(m) < 0))
        context.report({ node, messageId: 'unplaced', data: { module } });
      if (fromFloor >= 0 && toFloor > fromFloor)
        context.report({ node, messageId: 'upward', data: { from, fromFloor, to, toFloor } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/** A limit is claimed in the step it limits, never counted then compared (see below). */
const QUOTA_RULE = ['left', 'right'].map((side) => ({
  selector: `BinaryExpression[operator=/^[<>]=?$/][${side}.type='AwaitExpression'][${side}.argument.callee.property.name=/^count/][${side === 'left' ? 'right' : 'left'}.value!=0]`,
  message:
    'A limit is claimed, not counted then compared: use QuotaService.take or holdSlots (api/src/common/quota.ts).',
}));

/** `connection.db.collection('orders')` and the like: another module's data by its raw name. */
const RAW_COLLECTION_RULE = {
  selector: "CallExpression[callee.property.name='collection']",
  message:
    "A collection is reached through its owner's repository, not by its raw name (issue 39: personal data has owners). Exceptions: repositories, stores, migrations, seed scripts, index/TTL management (eslint.config.mjs).",
};

const RAW_COLLECTION_EXCEPTIONS = [
  'api/src/**/*.repository.ts',
  'api/src/**/*.store.ts',
  'api/src/**/migrations/**',
  'api/src/scripts/**',
  'api/src/seed/**',
  // Stores of the API's shared mechanisms, each the one owner of its collection.
  'api/src/common/quota.ts',
  'api/src/common/claims.ts',
  'api/src/catalog/read-model/catalogue-sync.ts',
  'api/src/reports/sales-rollup.ts',
  // Index and TTL management of the privacy periods (the pruned collections' TTL indexes).
  'api/src/privacy/privacy-settings.service.ts',
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      '.data/**',
      '.nx/**',
      'shared-contracts/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // What ships (each project's src/) keeps the arrows one way; tests and configs may use tools/.
    files: ['*/src/**/*.{ts,tsx}'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:app', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:tools', onlyDependOnLibsWithTags: ['scope:shared'] },
          ],
        },
      ],
    },
  },
  {
    // A limit is claimed in the step it limits (api/src/common/quota.ts), never counted and then
    // compared: a burst of requests all read the same count and all pass. And a collection is read
    // and written by the module that owns it, through its repository, never by its raw name
    // elsewhere (issue 39: a module that stores personal data declares it, exports and erases it).
    files: ['api/src/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...QUOTA_RULE, RAW_COLLECTION_RULE] },
  },
  {
    // The API's modules stand on floors (API_FLOORS above): an import never runs up a floor.
    files: ['api/src/**/*.ts'],
    plugins: { api: { rules: { floors: apiFloors } } },
    rules: { 'api/floors': 'error' },
  },
  {
    // Where a raw collection is right: repositories and stores (each owns its collections),
    // migrations, seed scripts, and the index and TTL management of the privacy periods.
    files: RAW_COLLECTION_EXCEPTIONS,
    rules: { 'no-restricted-syntax': ['error', ...QUOTA_RULE] },
  },
  {
    files: ['storefront/**/*.{ts,tsx}', 'backoffice/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['storefront/src/features/**/*.{ts,tsx}', 'backoffice/src/features/**/*.{ts,tsx}'],
    plugins: { local: { rules: { 'no-cross-feature-imports': noCrossFeatureImports } } },
    rules: { 'local/no-cross-feature-imports': 'error' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        module: 'writable',
        require: 'readonly',
        __dirname: 'readonly',
        process: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
