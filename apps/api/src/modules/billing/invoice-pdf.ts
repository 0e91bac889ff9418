/**
 * The invoice PDF, drawn with pdfkit in DejaVu Sans. pdfkit's built-in fonts cover only WinAnsi and
 * it has no fallback, so a name such as "Łukasz" needs an embedded Unicode font; it comes from the
 * dejavu-fonts-ttf package, never from the machine's fonts (decision 014).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create as parseFont } from 'fontkit';
import PDFDocument from 'pdfkit';
import { formatDayMonthYear } from '@portal/contracts';
import { billingCycleName, formatUnitPriceUsd, formatUsd } from './billing-rules.ts';

/**
 * Each font is parsed once for the process: pdfkit takes an already parsed fontkit font as a
 * source (its types list only files and bytes), and parsing both for every document cost ~70 ms,
 * several times what drawing an invoice takes.
 */
function loadFont(file: string): PDFKit.Mixins.PDFFontSource {
  const path = createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${file}`);
  return parseFont(readFileSync(path)) as unknown as PDFKit.Mixins.PDFFontSource;
}
const FONT_REGULAR = 'regular';
const FONT_BOLD = 'bold';
let fonts: Record<typeof FONT_REGULAR | typeof FONT_BOLD, PDFKit.Mixins.PDFFontSource> | undefined;

export interface InvoiceParty {
  name: string;
  addressLines: string[];
}

export interface InvoiceCustomer extends InvoiceParty {
  /** Empty when the organisation is not VAT-registered. */
  vatNumber: string;
}

export interface InvoiceLine {
  description: string;
  /** Null for a line charged as a whole (shown blank). */
  quantity: number | null;
  unitPriceMicroUsd: number | null;
  amountCents: number;
}

export interface InvoiceTaxLine {
  title: string;
  amountCents: number;
}

/** Everything an invoice shows, already worked out by the billing rules; amounts in cents. */
export interface Invoice {
  invoiceNumber: string;
  issuedAt: Date;
  /** `YYYY-MM` */
  billingCycle: string;
  /** The product's name and the configured seller address. */
  seller: InvoiceParty;
  /** The organisation's billing name, address and VAT number. */
  customer: InvoiceCustomer;
  lines: InvoiceLine[];
  subtotalCents: number;
  discountCents: number;
  taxes: InvoiceTaxLine[];
  totalCents: number;
  creditCents: number;
  paidCents: number;
  dueCents: number;
}

export interface RenderInvoiceOptions {
  /** Deflate the page streams (default); tests turn it off to read the text back. */
  compress?: boolean;
}

const MARGIN = 50;
const MUTED = '#555555';
const RULE = '#cccccc';
const ROW_GAP = 6;
/** Description, quantity, unit price and amount columns across the A4 width inside the margins. */
const COLUMNS = [
  { x: MARGIN, width: 225, align: 'left' },
  { x: 275, width: 70, align: 'right' },
  { x: 345, width: 90, align: 'right' },
  { x: 435, width: 110, align: 'right' },
] as const;
const TABLE_RIGHT = 545;
/** Totals are a label column and the amount column on the right. */
const TOTAL_LABEL = { x: 285, width: 140 };
const TOTAL_AMOUNT = COLUMNS[3];

const count = new Intl.NumberFormat('en-US');

type Document = PDFKit.PDFDocument;

function drawRule(doc: Document, y: number): void {
  doc.moveTo(MARGIN, y).lineTo(TABLE_RIGHT, y).lineWidth(0.5).strokeColor(RULE).stroke();
}

/** Writes one table row at y and answers where the next one starts. */
function drawRow(doc: Document, y: number, cells: readonly string[]): number {
  const height = Math.max(...cells.map((cell, i) => doc.heightOfString(cell, { width: COLUMNS[i]!.width })));
  cells.forEach((cell, i) => {
    const { x, width, align } = COLUMNS[i]!;
    doc.text(cell, x, y, { width, align });
  });
  return y + height + ROW_GAP;
}

function drawTableHeading(doc: Document, y: number): number {
  doc.font(FONT_BOLD).fontSize(9).fillColor(MUTED);
  const next = drawRow(doc, y, ['Description', 'Quantity', 'Unit price (USD)', 'Amount (USD)']);
  drawRule(doc, next - ROW_GAP / 2);
  doc.font(FONT_REGULAR).fillColor('black');
  return next;
}

function drawHeader(doc: Document, invoice: Invoice): number {
  doc.font(FONT_BOLD).fontSize(18).text(invoice.seller.name, MARGIN, MARGIN, { width: 280 });
  doc.font(FONT_REGULAR).fontSize(9).fillColor(MUTED);
  for (const line of invoice.seller.addressLines) doc.text(line, { width: 280 });
  const sellerBottom = doc.y;

  const right = { width: 200, align: 'right' } as const;
  doc.font(FONT_BOLD).fontSize(20).fillColor('black').text('INVOICE', 345, MARGIN, right);
  doc.font(FONT_REGULAR).fontSize(9);
  const facts: [label: string, value: string][] = [
    ['Invoice number', invoice.invoiceNumber],
    ['Issue date', formatDayMonthYear(invoice.issuedAt, 'utc')],
    ['Billing cycle', billingCycleName(invoice.billingCycle)],
  ];
  for (const [label, value] of facts) {
    doc.fillColor(MUTED).text(label, 345, doc.y + 4, right);
    doc.fillColor('black').text(value, right);
  }

  const billToTop = Math.max(sellerBottom, doc.y) + 24;
  doc.font(FONT_BOLD).fontSize(9).fillColor(MUTED).text('Bill to', MARGIN, billToTop);
  doc.font(FONT_REGULAR).fontSize(11).fillColor('black').text(invoice.customer.name, { width: 300 });
  doc.fontSize(9);
  for (const line of invoice.customer.addressLines) doc.text(line, { width: 300 });
  if (invoice.customer.vatNumber) doc.text(`VAT number: ${invoice.customer.vatNumber}`, { width: 300 });
  return doc.y + 24;
}

function lineCells(line: InvoiceLine): string[] {
  return [
    line.description,
    line.quantity === null ? '' : count.format(line.quantity),
    line.unitPriceMicroUsd === null ? '' : formatUnitPriceUsd(line.unitPriceMicroUsd),
    formatUsd(line.amountCents),
  ];
}

function totalRows(invoice: Invoice): { label: string; cents: number; strong?: boolean }[] {
  return [
    { label: 'Subtotal', cents: invoice.subtotalCents },
    ...(invoice.discountCents > 0 ? [{ label: 'Discount', cents: -invoice.discountCents }] : []),
    ...invoice.taxes.map((tax) => ({ label: tax.title, cents: tax.amountCents })),
    { label: 'Total (USD)', cents: invoice.totalCents, strong: true },
    ...(invoice.creditCents > 0 ? [{ label: 'Credit', cents: -invoice.creditCents }] : []),
    { label: 'Paid', cents: -invoice.paidCents },
    { label: 'Amount due (USD)', cents: invoice.dueCents, strong: true },
  ];
}

function drawTotals(doc: Document, invoice: Invoice, top: number): void {
  const rows = totalRows(invoice);
  const rowHeight = 16;
  let y = top + ROW_GAP;
  if (y + rows.length * rowHeight + 40 > doc.page.height - MARGIN) {
    doc.addPage();
    y = MARGIN;
  }
  for (const row of rows) {
    doc.font(row.strong ? FONT_BOLD : FONT_REGULAR).fontSize(9);
    doc.text(row.label, TOTAL_LABEL.x, y, { width: TOTAL_LABEL.width, align: 'right' });
    doc.text(formatUsd(row.cents), TOTAL_AMOUNT.x, y, { width: TOTAL_AMOUNT.width, align: 'right' });
    y += rowHeight;
  }
  doc
    .font(FONT_REGULAR)
    .fontSize(8)
    .fillColor(MUTED)
    .text('All amounts in USD.', MARGIN, y + 16);
}

/** Numbers every page in its bottom margin, once the number of pages is known. */
function drawPageFooters(doc: Document, invoiceNumber: string): void {
  const { start, count } = doc.bufferedPageRange();
  for (let page = start; page < start + count; page++) {
    doc.switchToPage(page);
    const { margins, height } = doc.page;
    const bottomMargin = margins.bottom;
    // Text inside the bottom margin would otherwise make pdfkit start a new page.
    margins.bottom = 0;
    doc
      .font(FONT_REGULAR)
      .fontSize(8)
      .fillColor(MUTED)
      .text(`Invoice ${invoiceNumber} · Page ${page - start + 1} of ${count}`, MARGIN, height - MARGIN + 16, {
        width: TABLE_RIGHT - MARGIN,
        align: 'center',
      });
    margins.bottom = bottomMargin;
  }
}

/** The invoice as a PDF file. */
export function renderInvoicePdf(invoice: Invoice, options: RenderInvoiceOptions = {}): Promise<Buffer> {
  fonts ??= { [FONT_REGULAR]: loadFont('DejaVuSans.ttf'), [FONT_BOLD]: loadFont('DejaVuSans-Bold.ttf') };
  // pdfkit selects Helvetica at first; it stays out of the file, since no text is written in it.
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    compress: options.compress ?? true,
    info: {
      Title: `Invoice ${invoice.invoiceNumber}`,
      Author: invoice.seller.name,
      CreationDate: invoice.issuedAt,
    },
  });
  doc
    .registerFont(FONT_REGULAR, fonts[FONT_REGULAR])
    .registerFont(FONT_BOLD, fonts[FONT_BOLD])
    .font(FONT_REGULAR);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const pageBottom = doc.page.height - MARGIN;
  let y = drawTableHeading(doc, drawHeader(doc, invoice));
  for (const line of invoice.lines) {
    const cells = lineCells(line);
    const height = doc.heightOfString(cells[0]!, { width: COLUMNS[0].width });
    if (y + height > pageBottom) {
      doc.addPage();
      y = drawTableHeading(doc, MARGIN);
    }
    y = drawRow(doc, y, cells);
  }
  drawRule(doc, y - ROW_GAP / 2);
  drawTotals(doc, invoice, y);
  drawPageFooters(doc, invoice.invoiceNumber);
  doc.end();
  return done;
}
