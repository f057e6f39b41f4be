import { expect, expectAccessible, screenshot, test } from './support/fixtures';

test('a signed-out visitor is sent to /signin and signs in through the OpenID Provider, landing in the app', async ({
  page,
}) => {
  await page.goto('/o/acme/teams');
  await expect(page).toHaveURL(/\/signin\?org=acme&returnTo=%2Fo%2Facme%2Fteams$/);
  await page.getByRole('link', { name: 'Company SSO' }).click();
  // The provider's own login and consent pages.
  await page.locator('input[name="login"]').fill('olivia');
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/o\/acme\/teams$/);
  await expect(page.getByRole('heading', { name: 'Teams', level: 1 })).toBeVisible();
  await expect(page.getByTestId('signed-in-user')).toHaveText('Olivia Owner');
  await screenshot(page, 'landing-after-sign-in');
});

for (const width of [1280, 390]) {
  test(`the sign-in page lists the providers and words a failed sign-in, accessible at ${width} px`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await page.goto('/');
    await expect(page).toHaveURL(/\/signin$/);
    await expect(page.getByRole('link', { name: 'Company SSO' })).toBeVisible();
    await expect(page.getByText('hub login-link <your imOpenId>')).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'signin');

    await page.goto('/signin?error=tenant_not_allowed');
    await expect(page.getByRole('alert')).toContainText('Accounts of your organization may not sign in to this hub.');
    await expectAccessible(page);
    await screenshot(page, 'signin-error');
  });
}

for (const width of [1280, 390]) {
  test(`the profile lists connected sign-ins, offers more, words a refusal, accessible at ${width} px`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await page.goto('/profile');
    await page.getByRole('link', { name: 'Company SSO' }).click();
    await page.locator('input[name="login"]').fill('olivia');
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    const section = page.getByRole('region', { name: 'Connected sign-ins' });
    const card = section.getByTestId('connected-sign-in');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText('Company SSO');
    await expect(card).toContainText('last used');
    // The only sign-in cannot be removed; the page says why instead of offering the button.
    await expect(card).toContainText('Your only sign-in');
    await expect(section.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
    const connect = section.getByRole('link', { name: 'Connect Company SSO' });
    await expect(connect).toHaveAttribute('href', '/auth/company/start?link=1&returnTo=%2Fprofile');
    await expectAccessible(page);
    await screenshot(page, `profile-${width}`);

    await page.goto('/profile?error=identity_in_use');
    await expect(section.getByRole('alert')).toContainText('already connected to another user');
    await expectAccessible(page);
  });
}
