import { describe, expect, it } from 'vitest';
import { monthlyUsageByApplication, monthsUpTo } from './monthly-usage.ts';

describe('the months up to now (UTC)', () => {
  it.each([
    {
      now: '2026-03-15T12:00:00Z',
      count: 12,
      months: [
        '2025-04',
        '2025-05',
        '2025-06',
        '2025-07',
        '2025-08',
        '2025-09',
        '2025-10',
        '2025-11',
        '2025-12',
        '2026-01',
        '2026-02',
        '2026-03',
      ],
    },
    {
      now: '2026-12-31T23:59:59.999Z',
      count: 12,
      months: [
        '2026-01',
        '2026-02',
        '2026-03',
        '2026-04',
        '2026-05',
        '2026-06',
        '2026-07',
        '2026-08',
        '2026-09',
        '2026-10',
        '2026-11',
        '2026-12',
      ],
    },
    // Midnight UTC opens the new month, whatever the server's own time zone says.
    { now: '2026-01-01T00:00:00Z', count: 3, months: ['2025-11', '2025-12', '2026-01'] },
    { now: '2025-12-31T23:59:59Z', count: 3, months: ['2025-10', '2025-11', '2025-12'] },
    { now: '2024-02-29T08:00:00Z', count: 1, months: ['2024-02'] },
  ])('$count months up to $now', ({ now, count, months }) => {
    expect(monthsUpTo(new Date(now), count)).toEqual(months);
  });
});

describe('monthly usage per application', () => {
  const months = ['2026-01', '2026-02', '2026-03'];
  const chat = { applicationId: 'app-chat', name: 'Chat' };
  const video = { applicationId: 'app-video', name: 'Video' };

  it('lists every application with a figure in every month, 0 where none was imported', () => {
    expect(
      monthlyUsageByApplication(months, [
        { ...chat, billingCycle: '2026-01', mau: 120 },
        { ...chat, billingCycle: '2026-03', mau: 80 },
        { ...video, billingCycle: '2026-03', mau: 5 },
      ]),
    ).toEqual([
      {
        month: '2026-01',
        applications: [
          { ...chat, mau: 120 },
          { ...video, mau: 0 },
        ],
      },
      {
        month: '2026-02',
        applications: [
          { ...chat, mau: 0 },
          { ...video, mau: 0 },
        ],
      },
      {
        month: '2026-03',
        applications: [
          { ...chat, mau: 80 },
          { ...video, mau: 5 },
        ],
      },
    ]);
  });

  it('keeps the order in which the rows name the applications', () => {
    const [first] = monthlyUsageByApplication(months, [
      { ...video, billingCycle: '2026-02', mau: 1 },
      { ...chat, billingCycle: '2026-01', mau: 2 },
    ]);
    expect(first?.applications.map((application) => application.name)).toEqual(['Video', 'Chat']);
  });

  it('leaves out figures of other months, and an application with only those', () => {
    expect(
      monthlyUsageByApplication(months, [
        { ...chat, billingCycle: '2025-12', mau: 999 },
        { ...video, billingCycle: '2026-02', mau: 7 },
      ]).map((month) => month.applications),
    ).toEqual([[{ ...video, mau: 0 }], [{ ...video, mau: 7 }], [{ ...video, mau: 0 }]]);
  });

  it('answers every month, with no applications, when nothing was imported', () => {
    expect(monthlyUsageByApplication(months, [])).toEqual(
      months.map((month) => ({ month, applications: [] })),
    );
  });
});
