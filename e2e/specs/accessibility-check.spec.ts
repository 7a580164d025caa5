// The check every screen goes through (expectAccessible) must itself fail on a violation, by
// either of its two ways: in place on a page of one frame, through AxeBuilder on one of several.
import { expect, expectAccessible, test } from '../support/fixtures';

const PAGE = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Check</title></head><body><main>${body}</main></body></html>`;

test('fails on an image without a text alternative, and passes once it has one', async ({
  page,
}) => {
  await page.setContent(
    PAGE('<h1>Receipts</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'),
  );
  await expect(expectAccessible(page, 'one frame')).rejects.toThrow(/image-alt: img/);
  await page.setContent(
    PAGE('<h1>Receipts</h1><img alt="Logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'),
  );
  await expectAccessible(page, 'one frame, fixed');
});

test('reaches into a frame', async ({ page }) => {
  const framed = PAGE('<h1>Inside</h1><button></button>').replaceAll('"', '&quot;');
  await page.setContent(
    PAGE(`<h1>Outside</h1><iframe title="Inside" srcdoc="${framed}"></iframe>`),
  );
  await expect(page.frames()).toHaveLength(2);
  await expect(expectAccessible(page, 'two frames')).rejects.toThrow(/button-name: iframe/);
});
