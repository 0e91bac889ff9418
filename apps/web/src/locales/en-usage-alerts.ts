import type { MessageKey } from '@portal/contracts';

/**
 * The wording of usage alerts (decision 044): the section on Subscription and licenses and the
 * banner on the application list, added to the messages by the feature's parts when they load, so
 * a list without a crossed alert does not carry it.
 */
export const enUsageAlerts = {
  'usageAlerts.title': 'Usage alerts',
  'usageAlerts.intro':
    'When usage crosses an alert, we email once that month and show it above your application list until the month ends.',
  'usageAlerts.loadError': 'The usage alerts could not be loaded.',
  'usageAlerts.none': 'No alerts are set.',
  'usageAlerts.defaults': 'These are the default alerts: nothing has been saved yet.',
  'usageAlerts.oldLowBalanceRule':
    'With no balance alert set, you are warned when your balance falls below last month’s charge.',
  'usageAlerts.moneyHidden':
    'Alerts on the projected charge and the balance are shown only to those who see billing.',
  'usageAlerts.thresholds': 'Alerts',
  'usageAlerts.recipients': 'Also emailed',
  'usageAlerts.noRecipients': 'Nobody else',
  'usageAlerts.superAdminsTold': 'Super-admins are always emailed.',
  'usageAlerts.edit': 'Edit',

  'usageAlerts.describe.mau': '{{mau}} monthly active users',
  'usageAlerts.describe.mau_percent': '{{percent}}% of the license ({{mau}} MAU)',
  'usageAlerts.describe.projected_charge': 'Projected charge USD {{amount}}',
  'usageAlerts.describe.low_balance': 'Balance below USD {{amount}}',

  'usageAlerts.kind.mau': 'Monthly active users',
  'usageAlerts.kind.mau_percent': 'Percent of the license',
  'usageAlerts.kind.projected_charge': 'Projected charge (USD)',
  'usageAlerts.kind.low_balance': 'Balance below (USD)',
  'usageAlerts.unit.mau': 'MAU',
  'usageAlerts.unit.mau_percent': '%',
  'usageAlerts.unit.projected_charge': 'USD',
  'usageAlerts.unit.low_balance': 'USD',

  'usageAlerts.form.label': 'Edit usage alerts',
  'usageAlerts.form.kind': 'Alert {{number}}',
  'usageAlerts.form.value': 'Alert {{number}} threshold',
  'usageAlerts.form.remove': 'Remove alert {{number}}',
  'usageAlerts.form.add': 'Add alert',
  'usageAlerts.form.max': 'At most {{max}} alerts.',
  'usageAlerts.form.recipients': 'Also email',
  'usageAlerts.form.recipientsHint': 'Up to {{max}} addresses besides the super-admins.',
  'usageAlerts.form.recipientsPlaceholder': 'name@example.com',
  'usageAlerts.form.removeRecipient': 'Remove {{email}}',
  'usageAlerts.form.save': 'Save',
  'usageAlerts.form.cancel': 'Cancel',
  'usageAlerts.form.saved': 'Usage alerts saved.',

  'usageAlerts.error.required': 'Enter a value.',
  'usageAlerts.error.wholeNumber': 'Enter a whole number of 1 or more.',
  'usageAlerts.error.amount': 'Enter an amount in USD of 0.01 or more, with at most 2 decimals.',
  'usageAlerts.error.tooLarge': 'This is more than an alert can be.',
  'usageAlerts.error.twice': 'This alert is set twice.',
  'usageAlerts.error.notForContract': 'Your contract has no figure for this alert.',
  'usageAlerts.error.email': 'Enter valid email addresses.',

  'usageAlerts.notices': 'Usage alerts this month',
  'usageAlerts.notice.mau_percent': 'You have used {{percent}}% of your {{license}}-MAU license this month.',
  'usageAlerts.notice.mau':
    'Your monthly active users reached {{figure}} this month, over your alert of {{threshold}}.',
  'usageAlerts.notice.projected_charge':
    'This month’s projected charge of USD {{figure}} is over your alert of USD {{threshold}}.',
  'usageAlerts.notice.low_balance':
    'Your balance of USD {{figure}} is below your alert of USD {{threshold}}.',
  'usageAlerts.notice.topUp': 'Top up balance',
  'usageAlerts.notice.settings': 'Usage alerts',
} as const satisfies Record<string, string> & { [key in MessageKey]?: never };
