import { ConfigError, loadConfig } from './app-config';

const productionEnv = {
  NODE_ENV: 'production',
  MONGODB_URI: 'mongodb://db.internal:27017/spc',
  JWT_SECRET: 'a'.repeat(40),
  ADMIN_EMAIL: 'Owner@Seedlings.co.ke',
  ADMIN_PASSWORD: 'Strong#Pass9',
  STOREFRONT_URL: 'https://shop.seedlings.co.ke',
  BACKOFFICE_URL: 'https://admin.seedlings.co.ke/',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('gives development working defaults', () => {
    const config = loadConfig({});
    expect(config.env).toBe('development');
    expect(config.port).toBe(3000);
    expect(config.corsOrigins).toEqual(['http://localhost:5173', 'http://localhost:5174']);
    expect(config.admin.usingDevDefaults).toBe(true);
  });

  it('refuses to start production without its secrets, naming each missing setting', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems).toEqual([
      'MONGODB_URI is required in production',
      'JWT_SECRET is required in production',
      'ADMIN_EMAIL is required in production',
      'ADMIN_PASSWORD is required in production',
      'STOREFRONT_URL is required in production',
      'BACKOFFICE_URL is required in production',
    ]);
  });

  it('refuses the public development secrets in production', () => {
    const problems = problemsOf({
      ...productionEnv,
      JWT_SECRET: 'dev-only-access-secret-change-me-0123456789abcdef',
    });
    expect(problems).toEqual(['JWT_SECRET must not be the development default in production']);
  });

  it('names a malformed setting', () => {
    expect(problemsOf({ PORT: 'eighty' })).toEqual([expect.stringMatching(/^PORT /)]);
    expect(problemsOf({ MONGODB_URI: 'postgres://x' })).toEqual([
      'MONGODB_URI must start with mongodb:// or mongodb+srv://',
    ]);
    expect(problemsOf({ JWT_SECRET: 'short' })).toEqual([
      'JWT_SECRET must be at least 32 characters',
    ]);
  });

  it('reads a complete production environment, lower-casing the admin e-mail and trimming URLs', () => {
    const config = loadConfig(productionEnv);
    expect(config.env).toBe('production');
    expect(config.admin).toEqual({
      email: 'owner@seedlings.co.ke',
      password: 'Strong#Pass9',
      usingDevDefaults: false,
    });
    expect(config.backofficeUrl).toBe('https://admin.seedlings.co.ke');
    expect(config.corsOrigins).toEqual([
      'https://shop.seedlings.co.ke',
      'https://admin.seedlings.co.ke',
    ]);
    expect(config.log.pretty).toBe(false);
  });
});
