import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createTestApp, type TestApp } from './support/test-app';

const generatedDir = path.resolve(__dirname, '../../shared-contracts/src/generated');
const REGENERATE = 'run `npm run contracts:generate` and commit the result';

describe('OpenAPI document and Swagger UI', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ name: 'openapi' });
  });
  afterAll(() => t.close());

  it('serves Swagger UI at /api/docs', async () => {
    const res = await t.http().get('/api/docs').redirects(1).expect(200);
    expect(res.text).toContain('swagger-ui');
  });

  it('serves the document at /api/docs-json with bearer auth declared', async () => {
    const res = await t.http().get('/api/docs-json').expect(200);
    expect(res.body.info.title).toBe('Seedling Propagation Centre API');
    expect(res.body.components.securitySchemes.bearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(Object.keys(res.body.paths)).toContain('/api/health');
  });

  it('matches the document committed in shared-contracts', async () => {
    const res = await t.http().get('/api/docs-json').expect(200);
    const committed = JSON.parse(readFileSync(path.join(generatedDir, 'openapi.json'), 'utf8'));
    expect({ document: res.body, hint: REGENERATE }).toEqual({
      document: committed,
      hint: REGENERATE,
    });
  });

  it('has generated types that are up to date with the document', async () => {
    // The generator's own CLI, as `npm run contracts:generate` runs it (it is an ES module Jest cannot load).
    const cli = path.join(
      path.dirname(require.resolve('openapi-typescript/package.json')),
      'bin/cli.js',
    );
    const expected = execFileSync(
      process.execPath,
      [cli, path.join(generatedDir, 'openapi.json')],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    const committedTypes = readFileSync(path.join(generatedDir, 'api-types.ts'), 'utf8');
    expect({ types: committedTypes.trim(), hint: REGENERATE }).toEqual({
      types: expected.trim(),
      hint: REGENERATE,
    });
  });
});
