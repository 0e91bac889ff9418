// @vitest-environment jsdom
import type { Account, Permission, UsageAlertSettingsResponse } from '@portal/contracts';
import { QueryClient } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderSignedInPart, stubApi } from '../../../components/render-for-test';
import { setAccount } from '../../../lib/account';
import { UsageAlertsSection } from './usage-alerts-section';

// The machine may be busy: what the section shows once its answer is in may take more than a second.
configure({ asyncUtilTimeout: 10_000 });

const SUPER_ADMIN: Permission[] = ['VIEW_BILLING', 'VIEW_PLAN_DETAIL', 'MANAGE_USAGE_ALERTS'];
const ADMIN: Permission[] = ['VIEW_PLAN_DETAIL', 'VIEW_MEMBER'];

const flatRateDefaults: UsageAlertSettingsResponse = {
  alerts: [
    { kind: 'mau_percent', value: 80 },
    { kind: 'mau_percent', value: 100 },
  ],
  recipients: [],
  defaults: true,
  contractType: 'flat_rate',
  licenseMau: 10_000,
};

const paygSaved: UsageAlertSettingsResponse = {
  alerts: [
    { kind: 'mau', value: 50_000 },
    { kind: 'projected_charge', value: 40_000 },
  ],
  recipients: ['finance@acme.io'],
  defaults: false,
  contractType: 'payg',
  licenseMau: 0,
};

let api: ReturnType<typeof stubApi>;
beforeEach(() => {
  api = stubApi();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function renderSection(permissions: Permission[], settings: UsageAlertSettingsResponse) {
  setAccount({ permissions, accountStatus: 'active' } as Account);
  api.answer('GET', '/api/v1/usage-alerts', settings);
  renderSignedInPart(
    <UsageAlertsSection />,
    new QueryClient({ defaultOptions: { queries: { retry: false } } }),
  );
  const region = screen.getByRole('region', { name: 'Usage alerts' });
  await within(region).findByText('Alerts');
  return region;
}

const itemsOf = (region: HTMLElement, list: string) =>
  within(within(region).getByRole('list', { name: list }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

const valueInput = (number: number) => screen.getByRole('textbox', { name: `Alert ${number} threshold` });

describe('the usage alerts section', { timeout: 30_000 }, () => {
  it('shows an admin the thresholds in words, read-only, and who besides the super-admins is told', async () => {
    const region = await renderSection(ADMIN, flatRateDefaults);
    expect(itemsOf(region, 'Alerts')).toEqual([
      '80% of the license (8,000 MAU)',
      '100% of the license (10,000 MAU)',
    ]);
    within(region).getByText('These are the default alerts: nothing has been saved yet.');
    within(region).getByText('Nobody else');
    within(region).getByText('Super-admins are always emailed.');
    expect(within(region).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(region).queryByText(/last month’s charge/)).toBeNull();
  });

  it('tells a PAYG super-admin that the old low-balance rule holds while no balance alert is set', async () => {
    const region = await renderSection(SUPER_ADMIN, paygSaved);
    expect(itemsOf(region, 'Alerts')).toEqual(['50,000 monthly active users', 'Projected charge USD 400.00']);
    expect(itemsOf(region, 'Also emailed')).toEqual(['finance@acme.io']);
    within(region).getByText(
      'With no balance alert set, you are warned when your balance falls below last month’s charge.',
    );
    expect(within(region).queryByText(/default alerts/)).toBeNull();
  });

  it('tells a PAYG admin, whose answer leaves the money alerts out, that there may be more', async () => {
    const region = await renderSection(ADMIN, { ...paygSaved, alerts: [{ kind: 'mau', value: 50_000 }] });
    expect(itemsOf(region, 'Alerts')).toEqual(['50,000 monthly active users']);
    within(region).getByText(
      'Alerts on the projected charge and the balance are shown only to those who see billing.',
    );
    expect(within(region).queryByText(/last month’s charge/)).toBeNull();
  });

  it('saves the edited set with money in cents and shows what the server saved', async () => {
    const region = await renderSection(SUPER_ADMIN, paygSaved);
    fireEvent.click(within(region).getByRole('button', { name: 'Edit' }));

    expect((valueInput(2) as HTMLInputElement).value).toBe('400.00');
    fireEvent.change(valueInput(2), { target: { value: '412.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove alert 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add alert' }));
    fireEvent.change(valueInput(2), { target: { value: '60,000' } });
    const recipients = screen.getByRole('combobox', { name: 'Also email' });
    fireEvent.paste(recipients, { clipboardData: { getData: () => 'Ops@Acme.io, finance@acme.io' } });

    const saved: UsageAlertSettingsResponse = {
      ...paygSaved,
      alerts: [
        { kind: 'projected_charge', value: 41_250 },
        { kind: 'mau', value: 60_000 },
      ],
      recipients: ['finance@acme.io', 'ops@acme.io'],
    };
    api.answer('PUT', '/api/v1/usage-alerts', saved);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await within(region).findByText('Projected charge USD 412.50');
    expect(api.sent.find(({ method }) => method === 'PUT')?.body).toEqual({
      alerts: [
        { kind: 'projected_charge', value: 41_250 },
        { kind: 'mau', value: 60_000 },
      ],
      recipients: ['finance@acme.io', 'ops@acme.io'],
    });
    expect(itemsOf(region, 'Alerts')).toEqual(['Projected charge USD 412.50', '60,000 monthly active users']);
    expect(screen.queryByRole('form', { name: 'Edit usage alerts' })).toBeNull();
  });

  it('refuses values the form cannot read without asking the server', async () => {
    const region = await renderSection(SUPER_ADMIN, flatRateDefaults);
    fireEvent.click(within(region).getByRole('button', { name: 'Edit' }));
    fireEvent.change(valueInput(2), { target: { value: '80' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add alert' }));
    fireEvent.change(valueInput(3), { target: { value: '12.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await screen.findByText('This alert is set twice.');
    screen.getByText('Enter a whole number of 1 or more.');
    expect(valueInput(1).getAttribute('aria-invalid')).not.toBe('true');
    expect(valueInput(2).getAttribute('aria-invalid')).toBe('true');
    expect(valueInput(3).getAttribute('aria-invalid')).toBe('true');
    expect(api.sent.some(({ method }) => method === 'PUT')).toBe(false);
  });

  it("shows the server's refusal under the field it names and keeps what was typed", async () => {
    const region = await renderSection(SUPER_ADMIN, flatRateDefaults);
    fireEvent.click(within(region).getByRole('button', { name: 'Edit' }));
    fireEvent.change(valueInput(2), { target: { value: '95' } });
    api.answer(
      'PUT',
      '/api/v1/usage-alerts',
      {
        code: 'USAGE_ALERT_NOT_FOR_CONTRACT',
        message: "This alert does not apply to your organization's contract.",
        field: 'alerts.1.kind',
      },
      400,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const kind = screen.getByRole('combobox', { name: 'Alert 2' });
    await waitFor(() => expect(kind.getAttribute('aria-invalid')).toBe('true'));
    screen.getByText("This alert does not apply to your organization's contract.");
    expect((valueInput(2) as HTMLInputElement).value).toBe('95');
    screen.getByRole('form', { name: 'Edit usage alerts' });

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(itemsOf(region, 'Alerts')).toEqual([
      '80% of the license (8,000 MAU)',
      '100% of the license (10,000 MAU)',
    ]);
  });
});
