import type { UsageAlertNotice } from '@portal/contracts';

/** A notice of this month, with the fields a test is about. */
export const noticeForTest = (overrides: Partial<UsageAlertNotice>): UsageAlertNotice => ({
  id: 'n-1',
  kind: 'mau',
  threshold: 0,
  figure: 0,
  licenseMau: 0,
  cycle: '2026-11',
  createdAt: '2026-11-20T08:00:00.000Z',
  ...overrides,
});
