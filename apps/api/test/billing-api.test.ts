import type { RoleId } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { recordApplicationUsage } from '../src/modules/billing/billing.repository.ts';
import { monthlyRunService } from '../src/modules/billing/monthly-run.service.ts';
import { invoicesService } from '../src/modules/billing/invoices.service.ts';
import {
  INVOICE_LINK_LIFETIME_MS,
  invoiceLinkKey,
  invoiceLinks,
} from '../src/modules/billing/invoice-links.ts';
import {
  FLAT_RATE_CONTRACT,
  newApplicationWithUsage,
  newDailyTransactions,
  type OrganizationValues,
} from './billing-fixtures.ts';
import { inflateStreams, pdfText } from './pdf-text.ts';
import { expectApiError, joinOrganization, jsonRequest, setUpOrganization, useTestApp } from './helper.ts';

/*
 * The billing API through inject: transactions, their detail and payment summary, and plan usage,
 * for every role and for another organisation, over invoices written by the monthly billing run.
 */
const t = useTestApp();
const MARCH = '2025-03';

interface Organization {
  id: string;
  ownerCookie: string;
}

async function organization(domain: string, values: OrganizationValues): Promise<Organization> {
  const ownerCookie = await setUpOrganization(t.app, `owner@${domain}`);
  const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, ownerCookie));
  const { organizationId: id } = me.json() as { organizationId: string };
  await t.database.db
    .update(schema.organization)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(schema.organization.id, id));
  return { id, ownerCookie };
}

/** Bills March for one organisation and answers the padded id of its invoice. */
async function billMarch(organizationId: string): Promise<string> {
  const billing = monthlyRunService({ db: t.database.db, productName: 'Social' });
  const run = await billing.runMonthlyBilling({ cycle: MARCH, organizationId });
  expect(run.failed).toEqual([]);
  return String(run.billed[0]!.transactionId).padStart(9, '0');
}

const get = (url: string, cookie?: string) => t.app.inject(jsonRequest('GET', url, undefined, cookie));

let payg: Organization;
let flat: Organization;
let paygInvoice = '';
let flatInvoice = '';
const cookies = {} as Record<RoleId, string>;
let strangerCookie = '';

beforeAll(async () => {
  const db = t.database.db;
  payg = await organization('payg.billing-api.io', { balanceCents: 5000, billingName: 'Payg Ltd' });
  await newApplicationWithUsage(db, payg.id, {
    plan: 'advance',
    billingCycle: MARCH,
    mau: 1000,
    name: 'Chat',
  });
  // Created after Chat, so it is listed second.
  await newApplicationWithUsage(db, payg.id, {
    plan: 'max',
    billingCycle: MARCH,
    mau: 250,
    name: 'Video',
    createdAt: new Date('2025-02-01T00:00:00Z'),
  });
  paygInvoice = await billMarch(payg.id);

  flat = await organization('flat.billing-api.io', FLAT_RATE_CONTRACT);
  await newApplicationWithUsage(db, flat.id, { plan: 'advance', billingCycle: MARCH, mau: 1200 });
  flatInvoice = await billMarch(flat.id);

  cookies['portal.super-admin'] = payg.ownerCookie;
  for (const roleId of ['portal.admin', 'portal.moderator', 'portal.analyst', 'portal.developer'] as const) {
    cookies[roleId] = (await joinOrganization(t, `${roleId}@payg.billing-api.io`, payg.id, roleId)).cookie;
  }
  strangerCookie = (await organization('stranger.billing-api.io', {})).ownerCookie;
}, 60_000);

describe('who may call the billing API', () => {
  const transactionUrls = () => [
    '/api/v1/transactions',
    `/api/v1/transactions/${paygInvoice}`,
    `/api/v1/transactions/${paygInvoice}/details/mau_based`,
    `/api/v1/transactions/${paygInvoice}/payment-summary`,
  ];

  it('answers the transactions to the super-admin alone (VIEW_BILLING); other roles get 403', async () => {
    for (const url of transactionUrls()) {
      expect((await get(url, cookies['portal.super-admin'])).statusCode, url).toBe(200);
      for (const roleId of [
        'portal.admin',
        'portal.moderator',
        'portal.analyst',
        'portal.developer',
      ] as const) {
        expectApiError(await get(url, cookies[roleId]), 403, 'FORBIDDEN');
      }
      expectApiError(await get(url), 401, 'UNAUTHORIZED');
    }
    const search = (cookie: string) =>
      t.app.inject(jsonRequest('POST', '/api/v1/transactions/search', { term: paygInvoice }, cookie));
    expect((await search(cookies['portal.super-admin'])).statusCode).toBe(200);
    expectApiError(await search(cookies['portal.admin']), 403, 'FORBIDDEN');
  });

  it('answers usage and contracts with VIEW_PLAN_DETAIL: super-admin and admin', async () => {
    for (const url of ['/api/v1/accounts/usages', '/api/v1/accounts/contracts']) {
      for (const roleId of ['portal.super-admin', 'portal.admin'] as const) {
        expect((await get(url, cookies[roleId])).statusCode, `${url} as ${roleId}`).toBe(200);
      }
      for (const roleId of ['portal.moderator', 'portal.analyst', 'portal.developer'] as const) {
        expectApiError(await get(url, cookies[roleId]), 403, 'FORBIDDEN');
      }
    }
  });

  it("finds none of another organisation's transactions: 404, and nothing in its list or search", async () => {
    for (const url of transactionUrls().slice(1))
      expectApiError(await get(url, strangerCookie), 404, 'NOT_FOUND');
    expect((await get('/api/v1/transactions', strangerCookie)).json()).toEqual({ data: [], total: 0 });
    const search = await t.app.inject(
      jsonRequest('POST', '/api/v1/transactions/search', { term: paygInvoice }, strangerCookie),
    );
    expect(search.json()).toEqual([]);
  });
});

describe('the figures of an invoice', () => {
  it('PAYG: the transaction, one detail line per application and the summary of a paid-in-part charge', async () => {
    const cookie = payg.ownerCookie;
    // 1000 × 0.09 + 250 × 0.14 = 125.00, of which the balance of 50.00 pays all.
    expect((await get(`/api/v1/transactions/${paygInvoice}`, cookie)).json()).toMatchObject({
      transactionId: paygInvoice,
      type: 'service_charge',
      status: 'open',
      amount: 125,
      paymentAmount: 50,
      invoiceId: `INV-${paygInvoice}`,
      invoiceType: 'mau_based',
      billingCycle: MARCH,
      detail: [
        expect.objectContaining({ name: 'Chat', invoiceId: `INV-${paygInvoice}` }),
        expect.objectContaining({ name: 'Video' }),
      ],
    });
    expect((await get(`/api/v1/transactions/${paygInvoice}/details/mau_based`, cookie)).json()).toEqual([
      expect.objectContaining({ MAUUsage: 1000, price: 90, unitPrice: 0.09 }),
      expect.objectContaining({ MAUUsage: 250, price: 35, unitPrice: 0.14 }),
    ]);
    expectApiError(await get(`/api/v1/transactions/${paygInvoice}/details/component_based`, cookie), 404);
    expect((await get(`/api/v1/transactions/${paygInvoice}/payment-summary`, cookie)).json()).toEqual({
      invoiceId: `INV-${paygInvoice}`,
      subTotal: 125,
      discountAmount: 0,
      taxes: [],
      totalAmount: 125,
      creditAmount: 0,
      paidAmount: 50,
      dueAmount: 75,
    });
  });

  it('flat-rate: the components and the summary with tax, open', async () => {
    const cookie = flat.ownerCookie;
    // 499.00 + 200 × 0.09 + 100.00 = 617.00; SG tax 9 % = 55.53.
    expect((await get(`/api/v1/transactions/${flatInvoice}/details/component_based`, cookie)).json()).toEqual(
      [
        {
          invoiceId: `INV-${flatInvoice}`,
          components: [
            { title: 'Licence fee (1000 MAU)', quantity: 1, total_amount: 499 },
            { title: 'Monthly active users above the licence', quantity: 200, total_amount: 18 },
            { title: 'Support plan Gold', quantity: 1, total_amount: 100 },
          ],
        },
      ],
    );
    expect((await get(`/api/v1/transactions/${flatInvoice}/payment-summary`, cookie)).json()).toEqual({
      invoiceId: `INV-${flatInvoice}`,
      subTotal: 617,
      discountAmount: 0,
      taxes: [{ title: 'Tax', percentage: 9, taxAmount: 55.53 }],
      totalAmount: 672.53,
      creditAmount: 0,
      paidAmount: 0,
      dueAmount: 672.53,
    });
    expect((await get('/api/v1/accounts/contracts', cookie)).json()).toEqual([
      { type: 'flat_rate', license: 1000, supportPlan: 'Gold' },
    ]);
  });

  it("answers this month's usage and the PAYG contract", async () => {
    const [application] = await t.database.db
      .select({ id: schema.application.id })
      .from(schema.application)
      .where(eq(schema.application.organizationId, payg.id));
    await recordApplicationUsage(t.database.db, payg.id, {
      applicationId: application!.id,
      billingCycle: new Date().toISOString().slice(0, 7),
      mau: 321,
      importedAt: new Date(),
    });
    const cookie = payg.ownerCookie;
    expect((await get('/api/v1/accounts/usages', cookie)).json()).toEqual([
      { type: 'mau', usage: 321, updatedAt: expect.any(String) },
    ]);
    expect((await get('/api/v1/accounts/contracts', cookie)).json()).toEqual([
      { type: 'payg', license: 0, supportPlan: '' },
    ]);
  });
});

describe('the transaction list', () => {
  let listed: Organization;
  let ids: string[];

  beforeAll(async () => {
    listed = await organization('list.billing-api.io', {});
    const rows = await newDailyTransactions(t.database.db, listed.id, 31);
    ids = rows.map((id) => String(id).padStart(9, '0'));
  });

  const list = (query: string) =>
    get(`/api/v1/transactions${query}`, listed.ownerCookie).then(
      (response) => response.json() as { data: { transactionId: string }[]; total: number },
    );

  it('answers 30 a page with the total, newest first by default', async () => {
    const first = await list('');
    expect(first.total).toBe(31);
    expect(first.data.map((row) => row.transactionId)).toEqual([...ids].reverse().slice(0, 30));
    expect((await list('?page=2&sortBy=lastCreated')).data.map((row) => row.transactionId)).toEqual([ids[0]]);
  });

  it('sorts oldest first on firstCreated', async () => {
    expect((await list('?sortBy=firstCreated')).data.map((row) => row.transactionId)).toEqual(
      ids.slice(0, 30),
    );
    expect((await list('?page=2&sortBy=firstCreated')).data.map((row) => row.transactionId)).toEqual([
      ids[30],
    ]);
  });

  it('refuses a page below 1 and an unknown sort', async () => {
    expectApiError(await get('/api/v1/transactions?page=0', listed.ownerCookie), 400);
    expectApiError(await get('/api/v1/transactions?sortBy=newest', listed.ownerCookie), 400);
  });

  it('searches by the start of the padded id', async () => {
    const search = async (term: string) => {
      const response = await t.app.inject(
        jsonRequest('POST', '/api/v1/transactions/search', { term }, listed.ownerCookie),
      );
      expect(response.statusCode).toBe(200);
      return (response.json() as { transactionId: string }[]).map((row) => row.transactionId);
    };
    expect(await search(ids[7]!)).toEqual([ids[7]]);
    // Every id of this organisation starts with zeros; the autocomplete answers at most 10.
    expect(await search('0000')).toEqual(ids.slice(0, 10));
    expect(await search(ids[7]!.slice(0, -1))).toContain(ids[7]);
    expect(await search('INV-')).toEqual([]);
    expectApiError(
      await t.app.inject(
        jsonRequest('POST', '/api/v1/transactions/search', { term: '' }, listed.ownerCookie),
      ),
      400,
    );
  });

  it('finds a transaction by its id padded or not', async () => {
    const unpadded = String(Number(ids[3]));
    expect((await get(`/api/v1/transactions/${unpadded}`, listed.ownerCookie)).json()).toMatchObject({
      transactionId: ids[3],
      invoiceId: null,
    });
    expectApiError(await get(`/api/v1/transactions/${ids[3]}/payment-summary`, listed.ownerCookie), 404);
    expectApiError(await get('/api/v1/transactions/not-a-number', listed.ownerCookie), 400);
  });
});

describe('the invoice report', () => {
  const reportOf = async (transactionId: string, cookie: string) => {
    const response = await get(`/api/v1/transactions/${transactionId}/report`, cookie);
    expect(response.statusCode, response.body).toBe(200);
    return new URL((response.json() as { signedUrl: string }).signedUrl);
  };
  /** The signed link as the browser opens it in a new tab: no cookie. */
  const open = (url: URL) => t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });

  it('answers a link on the portal that opens the PDF without a cookie', async () => {
    const url = await reportOf(paygInvoice, payg.ownerCookie);
    expect(url.origin).toBe(new URL(t.config.publicUrl).origin);
    expect(url.pathname).toBe(`/api/v1/invoices/${paygInvoice}.pdf`);
    const expires = Number(url.searchParams.get('expires')) * 1000;
    expect(expires - Date.now()).toBeGreaterThan(INVOICE_LINK_LIFETIME_MS - 5000);
    expect(expires - Date.now()).toBeLessThanOrEqual(INVOICE_LINK_LIFETIME_MS + 1000);

    const response = await open(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`inline; filename="INV-${paygInvoice}.pdf"`);
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('prints the invoice number, both parties and the figures', async () => {
    const link = invoiceLinks({ key: invoiceLinkKey(t.config.authSecret!), publicUrl: t.config.publicUrl });
    const billing = invoicesService({
      db: t.database.db,
      productName: 'Social',
      links: link,
      sellerAddressLines: ['1 Harbour Front', '098632 Singapore'],
    });
    const url = new URL(link.sign(Number(paygInvoice)));
    const download = await billing.invoicePdf(paygInvoice, {
      expires: url.searchParams.get('expires')!,
      signature: url.searchParams.get('signature')!,
    });
    if ('refused' in download) throw new Error(`refused: ${download.refused}`);
    expect(download.fileName).toBe(`INV-${paygInvoice}.pdf`);
    const text = pdfText(inflateStreams(download.pdf));
    for (const shown of [
      `INV-${paygInvoice}`,
      'Social',
      '1 Harbour Front',
      'Payg Ltd',
      'Chat',
      '125.00',
      '75.00',
    ]) {
      expect(text).toContain(shown);
    }
  });

  it('refuses a link whose signature or id was changed with a page saying so (403)', async () => {
    const url = await reportOf(paygInvoice, payg.ownerCookie);
    const signature = url.searchParams.get('signature')!;
    const changedSignature = new URL(url);
    changedSignature.searchParams.set(
      'signature',
      `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`,
    );
    const otherId = new URL(url);
    otherId.pathname = `/api/v1/invoices/${flatInvoice}.pdf`;
    const laterExpiry = new URL(url);
    laterExpiry.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const withoutSignature = new URL(url);
    withoutSignature.searchParams.delete('signature');
    for (const changed of [changedSignature, otherId, laterExpiry, withoutSignature]) {
      const response = await open(changed);
      expect(response.statusCode, changed.toString()).toBe(403);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('This invoice link is not valid');
      expect(response.body).toContain('Download the invoice again from Billing');
    }
  });

  it('refuses an expired link with a page saying so (410)', async () => {
    // A link signed with the server's key by a clock eleven minutes behind: it expired a minute ago.
    const elevenMinutesAgo = () => Date.now() - INVOICE_LINK_LIFETIME_MS - 60_000;
    const expired = invoiceLinks({
      key: invoiceLinkKey(t.config.authSecret!),
      publicUrl: t.config.publicUrl,
      now: elevenMinutesAgo,
    }).sign(Number(paygInvoice));
    const response = await open(new URL(expired));
    expect(response.statusCode).toBe(410);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('This invoice link has expired');
    expect(response.body).toContain('Download the invoice again from Billing');
  });

  it('checks a link against its own clock: valid until the expiry, expired from it', () => {
    let now = Date.UTC(2025, 3, 1);
    const links = invoiceLinks({
      key: invoiceLinkKey('a'.repeat(32)),
      publicUrl: 'https://portal.test',
      now: () => now,
    });
    const url = new URL(links.sign(42));
    const query = {
      expires: url.searchParams.get('expires')!,
      signature: url.searchParams.get('signature')!,
    };
    now += INVOICE_LINK_LIFETIME_MS - 1;
    expect(links.check(42, query)).toBe('valid');
    now += 1;
    expect(links.check(42, query)).toBe('expired');
    expect(links.check(43, query)).toBe('invalid');
    const otherKey = invoiceLinks({ key: invoiceLinkKey('b'.repeat(32)), publicUrl: 'https://portal.test' });
    expect(otherKey.check(42, query)).toBe('invalid');
  });

  it('answers a report only for an invoice of the caller, with VIEW_BILLING', async () => {
    expectApiError(await get(`/api/v1/transactions/${paygInvoice}/report`, strangerCookie), 404, 'NOT_FOUND');
    expectApiError(
      await get(`/api/v1/transactions/${paygInvoice}/report`, cookies['portal.admin']),
      403,
      'FORBIDDEN',
    );
    expectApiError(await get(`/api/v1/transactions/${paygInvoice}/report`), 401, 'UNAUTHORIZED');
  });
});
