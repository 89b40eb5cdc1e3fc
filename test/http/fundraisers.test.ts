import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

const check = (id: string, channel = 'Storefront App', as?: TestApp['registration']) =>
  t.get('/fundraisers', { query: { channel, id }, as });

describe('GET /fundraisers (section 4.4)', () => {
  it('returns the FundraiserSummary of an active enrolment', async () => {
    const response = await check('10000001');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      method: '/fundraisers',
      data: {
        items: {
          name: 'Riverside Junior Football Club',
          fundraiserId: '10000001',
          productEnrollmentId: 'PE-10000001-SF',
          status: 'Enrollment Validated',
        },
      },
    });
  });

  it('accepts the 18-character CRM id and its 15-character prefix', async () => {
    for (const id of ['0015g00000Demo1AAA', '0015g00000Demo1']) {
      const response = await check(id);
      expect(response.statusCode).toBe(200);
      expect(response.json().data.items).toMatchObject({ name: 'Riverside Junior Football Club', fundraiserId: id });
    }
  });

  it('answers each id with itself when the enrolment is cached under several ids', async () => {
    // Cached answers are sent without a promise and their views are kept per cache entry
    // (docs/decisions/0082-request-path-budget.md): a view made for one id must never answer another.
    for (let round = 0; round < 3; round += 1)
      for (const id of ['10000001', '0015g00000Demo1AAA', '0015g00000Demo1']) {
        const response = await check(id);
        expect(response.statusCode).toBe(200);
        expect(response.json().data.items).toEqual({
          name: 'Riverside Junior Football Club',
          fundraiserId: id,
          productEnrollmentId: 'PE-10000001-SF',
          status: 'Enrollment Validated',
        });
      }
  });

  it("finds a fundraiser enrolled in the other channel for that channel's partner", async () => {
    const response = await check('10000003', 'Registration Integration', t.registration);
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ['unknown id', 'nope-123', /nope-123 not found for product Storefront App/],
    ['enrolled in the other channel only', '10000003', /10000003 is not enrolled in product Storefront App/],
    ['enrolled in neither channel', '10000005', /10000005 is not enrolled in product Storefront App/],
    ['product not activated', '10000004', /10000004 product Storefront App is not activated/],
  ])('%s → 400 Fundraiser Validation Unsuccessful, cause naming id and product', async (_case, id, cause) => {
    const response = await check(id);
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('FUNDRAISER:VALIDATION');
    expect(error.message).toBe('Fundraiser Validation Unsuccessful');
    expect(error.cause).toMatch(cause);
  });

  it('names every missing query parameter', async () => {
    const response = await t.get('/fundraisers');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.cause).toBe('query.channel: is required; query.id: is required');
  });

  it('matches channels exactly (case-sensitive): an unknown channel is a validation error listing the known ones', async () => {
    const response = await check('10000001', 'storefront app');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.cause).toContain('"Storefront App"');
  });
});
