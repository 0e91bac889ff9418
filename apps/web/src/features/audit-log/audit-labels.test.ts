import { AUDIT_ACTION_GROUPS, AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '@portal/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { addMessages } from '../../lib/i18n';
import { enAuditLog } from '../../locales/en-audit-log';
import {
  actionGroupLabel,
  actionLabel,
  actorLabel,
  auditValueText,
  targetTypeLabel,
  utcTimeText,
} from './audit-labels';

beforeAll(() => addMessages(enAuditLog));

/** A label the wording lacks comes back as its key, which holds the name's dot. */
const expectLabels = (labels: string[]) => {
  for (const label of labels) expect(label).not.toMatch(/^auditLog\./);
  expect(new Set(labels).size).toBe(labels.length);
};

describe('audit log labels', () => {
  it('words every action of the vocabulary, each differently', () => {
    expectLabels(AUDIT_ACTIONS.map(actionLabel));
    expect(actionLabel('member.role_changed')).toBe('Member role changed');
  });

  it('words every action group and target type', () => {
    expectLabels(AUDIT_ACTION_GROUPS.map(actionGroupLabel));
    expectLabels(AUDIT_TARGET_TYPES.map(targetTypeLabel));
    expect(actionGroupLabel('member')).toBe('Members');
    expect(targetTypeLabel('api_key')).toBe('API key');
  });

  it('names the actor by email, or as the operator or the system', () => {
    expect(actorLabel({ kind: 'member', memberId: 'm1', email: 'ada@acme.io' })).toBe('ada@acme.io');
    expect(actorLabel({ kind: 'operator', memberId: null, email: null })).toBe('Operator');
    expect(actorLabel({ kind: 'system', memberId: null, email: null })).toBe('System');
  });

  it('shows a changed value plainly and an absent one as a dash', () => {
    expect(auditValueText(undefined)).toBe('—');
    expect(auditValueText(null)).toBe('—');
    expect(auditValueText('portal.admin')).toBe('portal.admin');
    expect(auditValueText(3)).toBe('3');
    expect(auditValueText(true)).toBe('Yes');
    expect(auditValueText(false)).toBe('No');
    expect(auditValueText(['a', 'b'])).toBe('a, b');
    expect(auditValueText([])).toBe('—');
  });

  it('writes the time in UTC to the second', () => {
    expect(utcTimeText('2026-01-05T09:07:12.345Z')).toBe('2026-01-05 09:07:12 UTC');
  });
});
