import { CountriesResponseSchema, SubdivisionsResponseSchema } from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, expectApiError } from './helper.ts';

const testApp = useTestApp();
let app: FastifyInstance;

beforeAll(() => {
  app = testApp.app;
});

function get(url: string) {
  return app.inject({ method: 'GET', url });
}

describe('GET /api/v1/utils/countries', () => {
  it('answers about 250 countries as label and two-letter value, sorted by label, without sign-in', async () => {
    const response = await get('/api/v1/utils/countries');
    expect(response.statusCode).toBe(200);
    const countries = CountriesResponseSchema.parse(response.json());
    expect(countries).toHaveLength(249);
    for (const country of countries) expect(country.value).toMatch(/^[A-Z]{2}$/);
    expect(new Set(countries.map((c) => c.value)).size).toBe(countries.length);
    const labels = countries.map((c) => c.label);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
    expect(countries).toEqual(
      expect.arrayContaining([
        { label: 'Singapore', value: 'SG' },
        { label: 'Germany', value: 'DE' },
        { label: 'United States', value: 'US' },
      ]),
    );
  });
});

describe('GET /api/v1/utils/subdivisions', () => {
  it('answers the five regions of Singapore as name and code', async () => {
    const response = await get('/api/v1/utils/subdivisions?countryCode=SG');
    expect(response.statusCode).toBe(200);
    const subdivisions = SubdivisionsResponseSchema.parse(response.json());
    expect(subdivisions).toHaveLength(5);
    expect(subdivisions).toContainEqual({ name: 'Central Singapore', code: '01' });
  });

  it('takes the country code in any case', async () => {
    const upper = await get('/api/v1/utils/subdivisions?countryCode=US');
    const lower = await get('/api/v1/utils/subdivisions?countryCode=us');
    expect(lower.statusCode).toBe(200);
    expect(lower.json()).toEqual(upper.json());
    expect(upper.json()).toContainEqual({ name: 'California', code: 'CA' });
  });

  it.each(['', '?countryCode=', '?countryCode=1', '?countryCode=SGP', '?countryCode=S%20', '?countryCode=SG&countryCode=US'])(
    'refuses a malformed country code (%s) with 400 on countryCode',
    async (query) => {
      const error = expectApiError(await get(`/api/v1/utils/subdivisions${query}`), 400, 'VALIDATION_ERROR');
      expect(error.field).toBe('countryCode');
    },
  );

  it('answers 404 for a well-formed code that names no country', async () => {
    const error = expectApiError(await get('/api/v1/utils/subdivisions?countryCode=ZZ'), 404, 'NOT_FOUND');
    expect(error.field).toBe('countryCode');
  });
});
