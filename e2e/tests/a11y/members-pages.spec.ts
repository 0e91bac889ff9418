import { expect, test, uniqueEmail } from '../../support/fixtures.ts';
import { expectNoSeriousA11yViolations } from '../../support/axe.ts';
import { invitationLink, joinAs, Members, rowOf } from '../../support/members.ts';

test.describe('accessibility of the members pages (WCAG 2 A and AA)', () => {
  test('manage members (both tabs), invite, edit member, edit profile and the invitation sign-up', async ({
    page,
    users,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await users.signedIn({ label: 'a11y-members' });
    const members = new Members(page.request, baseURL!);
    const developer = await joinAs(browser, baseURL!, members, 'portal.developer');
    const pendingEmail = uniqueEmail('a11y-pending');
    const since = Date.now();
    expect((await members.invite([pendingEmail], 'portal.analyst')).status()).toBe(201);

    await page.goto('/manage-members');
    await expect(rowOf(page, developer.user.email)).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/manage-members');
    await page.getByRole('tab', { name: /Invited members/ }).click();
    await expect(rowOf(page, pendingEmail)).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/manage-members invited tab');

    await page.goto('/invite-members');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/invite-members');

    await page.goto('/edit-profile');
    await expect(page.getByRole('textbox', { name: /^Display name/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/edit-profile');

    await page.goto('/manage-members');
    await rowOf(page, developer.user.email).getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Edit member' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/manage-members/:memberId');

    const invitee = await browser.newContext();
    try {
      const inviteePage = await invitee.newPage();
      await inviteePage.goto((await invitationLink(pendingEmail, since)).toString());
      await expect(inviteePage.getByRole('heading', { name: /^Join / })).toBeVisible();
      await expectNoSeriousA11yViolations(inviteePage, '/invitation-signup');
    } finally {
      await invitee.close();
    }
  });
});
