import { expect, signIn, test } from '../support/fixtures';

const SCREENS = [
  '/dashboard',
  '/profile',
  '/plans',
  '/plugins',
  '/orders',
  '/consents',
  '/activity',
];

test.describe('narrow screens', () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test('no screen scrolls sideways at phone width', async ({ page }) => {
    await signIn(page);
    for (const screen of SCREENS) {
      await page.goto(screen);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // wide tables scroll inside their own box, never the page
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${screen} is wider than the screen`).toBe(0);
    }
  });
});
