import type { MonthlyUsage } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { SERIES_COLORS, chartRows, monthLabel, monthlyUsageView } from './monthly-usage';

const chat = { applicationId: 'app-chat', name: 'Chat' };
const video = { applicationId: 'app-video', name: 'Video' };

describe('monthLabel', () => {
  it.each([
    ['2025-04', 'Apr 2025'],
    ['2026-01', 'Jan 2026'],
    ['2025-12', 'Dec 2025'],
  ])('names %s %s', (month, label) => {
    expect(monthLabel(month)).toBe(label);
  });
});

describe('monthlyUsageView', () => {
  const answer: MonthlyUsage[] = [
    {
      month: '2025-12',
      applications: [
        { ...chat, mau: 100 },
        { ...video, mau: 0 },
      ],
    },
    {
      month: '2026-01',
      applications: [
        { ...chat, mau: 1_200 },
        { ...video, mau: 30 },
      ],
    },
    {
      month: '2026-02',
      applications: [
        { ...chat, mau: 0 },
        { ...video, mau: 0 },
      ],
    },
  ];

  it('draws a line per application in the order answered, and each month oldest first with its total', () => {
    const view = monthlyUsageView(answer);
    expect(view.series).toEqual([
      { key: 'application0', applicationId: 'app-chat', label: 'Chat', color: SERIES_COLORS[0] },
      { key: 'application1', applicationId: 'app-video', label: 'Video', color: SERIES_COLORS[1] },
    ]);
    expect(view.months).toEqual([
      { label: 'Dec 2025', mau: [100, 0], total: 100 },
      { label: 'Jan 2026', mau: [1_200, 30], total: 1_230 },
      { label: 'Feb 2026', mau: [0, 0], total: 0 },
    ]);
    expect([view.from, view.to]).toEqual(['Dec 2025', 'Feb 2026']);
  });

  it('gives the chart one row per month with each line under its key', () => {
    expect(chartRows(monthlyUsageView(answer))).toEqual([
      { month: 'Dec 2025', application0: 100, application1: 0 },
      { month: 'Jan 2026', application0: 1_200, application1: 30 },
      { month: 'Feb 2026', application0: 0, application1: 0 },
    ]);
  });

  it('counts 0 for an application a month does not list', () => {
    const view = monthlyUsageView([
      { month: '2026-01', applications: [{ ...chat, mau: 5 }] },
      { month: '2026-02', applications: [{ ...video, mau: 7 }] },
    ]);
    expect(view.months.map((month) => month.mau)).toEqual([
      [5, 0],
      [0, 7],
    ]);
  });

  it('tells two applications of the same name apart by their ids', () => {
    const twin = { applicationId: 'app-chat-2', name: 'Chat' };
    const view = monthlyUsageView([
      {
        month: '2026-01',
        applications: [
          { ...chat, mau: 1 },
          { ...twin, mau: 2 },
          { ...video, mau: 3 },
        ],
      },
    ]);
    expect(view.series.map((series) => series.label)).toEqual([
      'Chat (app-chat)',
      'Chat (app-chat-2)',
      'Video',
    ]);
  });

  it('repeats the colours past the last one', () => {
    const applications = Array.from({ length: SERIES_COLORS.length + 1 }, (_, index) => ({
      applicationId: `app-${index}`,
      name: `App ${index}`,
      mau: index,
    }));
    const { series } = monthlyUsageView([{ month: '2026-01', applications }]);
    expect(series.at(-1)?.color).toBe(SERIES_COLORS[0]);
  });

  it('has no lines when no application had usage', () => {
    const view = monthlyUsageView([{ month: '2026-01', applications: [] }]);
    expect(view.series).toEqual([]);
    expect(view.months).toEqual([{ label: 'Jan 2026', mau: [], total: 0 }]);
  });
});
