import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { OrganizationChanges } from '../src/modules/accounts/accounts.repository.ts';

/*
 * The ledger's tables have one writer (docs/decisions/036-ledger-owner-and-one-noun.md): the
 * transactions, the balance movements, and the organisation's balance and account status are
 * written by modules/ledger/ledger.repository.ts alone, which the ledger service calls. This reads
 * the server's source for every write of them.
 */

const SOURCE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const LEDGER_TABLES = ['ledgerTransaction', 'balanceMovement'];
const LEDGER_COLUMNS = ['balanceCents', 'accountStatus', 'inactiveReason', 'inactiveNoticeTransactionId'];
const LEDGER_SQL = [
  /insert\s+into\s+"?(ledger_transaction|balance_movement)\b/i,
  /update\s+"?(ledger_transaction|balance_movement)\b/i,
  /delete\s+from\s+"?(ledger_transaction|balance_movement)\b/i,
  /update\s+"?organization"?\s+set\b[^;]*\b(balance_cents|account_status|inactive_reason|inactive_notice_transaction_id)\b/i,
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/** The names a file gives the ledger's tables: `schema.x`, and the consts and destructurings of it. */
function ledgerTableNames(source: string): Set<string> {
  const names = new Set(LEDGER_TABLES.map((table) => `schema.${table}`));
  for (const table of LEDGER_TABLES) {
    for (const [, alias] of source.matchAll(new RegExp(`const (\\w+) = schema\\.${table}\\b`, 'g'))) {
      names.add(alias!);
    }
    for (const [, inner] of source.matchAll(/const \{([^}]*)\} = schema\b/g)) {
      const entry = inner!.match(new RegExp(`\\b${table}\\b(?:\\s*:\\s*(\\w+))?`));
      if (entry) names.add(entry[1] ?? table);
    }
  }
  return names;
}

/** The text of the call's argument list that opens at `open` (the index of its `(`). */
function argumentsAt(source: string, open: number): string {
  let depth = 0;
  for (let index = open; index < source.length; index += 1) {
    if (source[index] === '(') depth += 1;
    else if (source[index] === ')' && --depth === 0) return source.slice(open + 1, index);
  }
  return source.slice(open + 1);
}

/** What in a source file writes the ledger's tables or the organisation's ledger columns. */
function ledgerWrites(source: string): string[] {
  const tables = ledgerTableNames(source);
  const writes: string[] = [];
  for (const match of source.matchAll(/\.(insert|update|delete)\(\s*([\w.]+)\s*\)/g)) {
    if (tables.has(match[2]!)) writes.push(`${match[1]} ${match[2]}`);
  }
  for (const match of source.matchAll(/\.(set|values)\(/g)) {
    const written = argumentsAt(source, match.index + match[0].length - 1);
    for (const column of LEDGER_COLUMNS) {
      if (new RegExp(`(^|[\\s{,])${column}\\s*[:,}]`).test(written)) writes.push(`${match[1]} ${column}`);
    }
  }
  for (const statement of LEDGER_SQL) {
    const found = source.match(statement);
    if (found) writes.push(found[0]);
  }
  return writes;
}

describe('the ledger', () => {
  it('is written by its own repository alone', () => {
    const writers = new Map<string, string[]>();
    for (const file of sourceFiles(SOURCE_ROOT)) {
      const writes = ledgerWrites(fs.readFileSync(file, 'utf8'));
      if (writes.length > 0) writers.set(path.relative(SOURCE_ROOT, file).split(path.sep).join('/'), writes);
    }
    // The ledger's repository is found writing each table and column, so the search sees writes.
    expect([...writers.keys()]).toEqual(['modules/ledger/ledger.repository.ts']);
    const ledgerWritten = writers.get('modules/ledger/ledger.repository.ts')!.join('\n');
    for (const written of ['insert transactions', 'insert schema.balanceMovement', ...LEDGER_COLUMNS]) {
      expect(ledgerWritten).toContain(written);
    }
  });

  it('finds writes however the table is named, and in SQL', () => {
    expect(
      ledgerWrites('const { ledgerTransaction: rows } = schema;\nawait tx.delete(rows).where(x);'),
    ).toEqual(['delete rows']);
    expect(
      ledgerWrites('await tx.update(schema.organization).set({ ...values, accountStatus: "active" });'),
    ).toEqual(['set accountStatus']);
    expect(ledgerWrites('await db.execute(sql`UPDATE organization SET balance_cents = 0`);')).toHaveLength(1);
    expect(ledgerWrites('await tx.select().from(schema.ledgerTransaction);')).toEqual([]);
  });

  it("leaves the organisation's balance and status out of what other modules may change", () => {
    expectTypeOf<OrganizationChanges>().not.toHaveProperty('balanceCents');
    expectTypeOf<OrganizationChanges>().not.toHaveProperty('accountStatus');
    expectTypeOf<OrganizationChanges>().not.toHaveProperty('inactiveReason');
    expectTypeOf<OrganizationChanges>().not.toHaveProperty('inactiveNoticeTransactionId');
    expectTypeOf<OrganizationChanges>().toHaveProperty('billingCountry');
  });
});
