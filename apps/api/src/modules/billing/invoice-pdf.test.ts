import { describe, expect, it } from 'vitest';
import { pdfText } from '../../../test/pdf-text.ts';
import { renderInvoicePdf, type Invoice } from './invoice-pdf.ts';

const invoice: Invoice = {
  invoiceNumber: '000000042',
  issuedAt: new Date('2025-04-01T02:00:00Z'),
  billingCycle: '2025-03',
  seller: { name: 'Social', addressLines: ['1 Harbour Front', '098632 Singapore'] },
  customer: {
    name: 'Åsa Łukasz Σοφία Дмитрий GmbH',
    addressLines: ['Żółkiewskiego 7', '00-001 Warszawa', 'Poland'],
    vatNumber: 'PL5260250274',
  },
  lines: [
    {
      description: 'Chat app (basic plan)',
      quantity: 12_500,
      unitPriceMicroUsd: 60_000,
      amountCents: 75_000,
    },
    { description: 'Video app (max plan)', quantity: 3, unitPriceMicroUsd: 140_000, amountCents: 42 },
  ],
  subtotalCents: 75_042,
  discountCents: 0,
  taxes: [{ title: 'VAT 23%', amountCents: 17_260 }],
  totalCents: 92_302,
  creditCents: 2_302,
  paidCents: 50_000,
  dueCents: 40_000,
};

describe('the invoice PDF', () => {
  it('is a PDF file, compressed by default', async () => {
    const pdf = await renderInvoicePdf(invoice);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain('/FlateDecode');
  });

  it('shows the number, dates, both parties, the lines, tax, totals, paid and due', async () => {
    const text = pdfText(await renderInvoicePdf(invoice, { compress: false }));
    for (const shown of [
      '000000042',
      '01 Apr 2025',
      'March 2025',
      'Social',
      '1 Harbour Front',
      'Åsa Łukasz Σοφία Дмитрий GmbH',
      'Żółkiewskiego 7',
      'VAT number: PL5260250274',
      'Chat app (basic plan)',
      '12,500',
      '0.06',
      '750.00',
      '0.14',
      '0.42',
      'VAT 23%',
      '172.60',
      '923.02',
      '-23.02',
      '-500.00',
      '400.00',
    ]) {
      expect(text).toContain(shown);
    }
    expect(text).not.toContain('\u0000');
  });

  it('leaves out the VAT number, discount and credit lines when there are none', async () => {
    const text = pdfText(
      await renderInvoicePdf(
        { ...invoice, customer: { ...invoice.customer, vatNumber: '' }, creditCents: 0 },
        { compress: false },
      ),
    );
    expect(text).not.toContain('VAT number');
    expect(text).not.toContain('Discount');
    expect(text).not.toContain('Credit');
  });

  it('continues the lines on further pages with the table heading repeated', async () => {
    const lines = Array.from({ length: 120 }, (_, i) => ({
      description: `Application ${i + 1}`,
      quantity: i,
      unitPriceMicroUsd: 90_000,
      amountCents: i * 9,
    }));
    const text = pdfText(await renderInvoicePdf({ ...invoice, lines }, { compress: false }));
    const pages = text.match(/^Invoice 000000042 · Page \d+ of (\d+)$/gm)!;
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.at(-1)).toBe(`Invoice 000000042 · Page ${pages.length} of ${pages.length}`);
    expect(text.match(/^Description$/gm)!.length).toBeGreaterThanOrEqual(pages.length - 1);
    expect(text).toContain('Application 120');
    expect(text).toContain('Amount due (USD)');
  });

  it("writes a September issue date with the portal's three-letter month, as its pages do", async () => {
    const text = pdfText(
      await renderInvoicePdf({ ...invoice, issuedAt: new Date('2025-09-30T23:30:00Z') }, { compress: false }),
    );
    expect(text).toContain('30 Sep 2025');
    expect(text).not.toContain('Sept');
  });
});
