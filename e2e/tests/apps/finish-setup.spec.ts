import type { PublicConfig } from '@portal/contracts';
import { Applications } from '../../support/applications.ts';
import { expect, test } from '../../support/fixtures.ts';
import { screenshotsAtWidths } from '../../support/screenshots.ts';

test('finish setup: each card opens its own guide from the public configuration, and both ways back lead to the list', async ({
  page,
  users,
  baseURL,
}) => {
  await users.signedIn({ label: 'finish-setup' });
  const app = await new Applications(page.request, baseURL!).create({ name: 'Finish Setup App', plan: 'advance', region: 'EU' });
  const { helpLinks } = (await (await page.request.get('/api/v1/config')).json()) as PublicConfig;
  const guides = [
    { card: 'Manage your community', href: helpLinks.manageCommunity },
    { card: 'Create a channel', href: helpLinks.createChannel },
    { card: 'Explore the docs', href: helpLinks.documentation },
  ];
  expect(new Set(guides.map(({ href }) => href)).size).toBe(3);
  // The guides are outside the portal: the test answers them itself.
  await page.context().route(/^https:\/\/docs\.example\.com\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Guide</title>' }),
  );

  await page.goto(`/create-app/asc/finish-setup?applicationId=${app.applicationId}`);
  await expect(page.getByRole('heading', { name: 'You are all set' })).toBeVisible();
  await screenshotsAtWidths(page, 'finish-setup');

  for (const { card, href } of guides) {
    const link = page.getByRole('link', { name: new RegExp(`^${card}`) });
    await expect(link).toHaveAttribute('href', href);
    await expect(link).toHaveAttribute('target', '_blank');
    const [guide] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await expect(guide).toHaveURL(href);
    await guide.close();
  }

  await page.getByRole('link', { name: 'Back to applications' }).click();
  await expect(page).toHaveURL(/\/apps\/asc$/);
  await page.goBack();
  await page.getByRole('link', { name: 'Go to my application' }).click();
  await expect(page).toHaveURL(/\/apps\/asc$/);
});
