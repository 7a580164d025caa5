import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

/** Each test starts from a page where no notice has been raised and the toaster is not loaded. */
async function freshApp() {
  vi.resetModules();
  const [{ AppProvider, TOASTER_AFTER_LOAD_MS }, { toast }] = await Promise.all([
    import('./provider'),
    import('@/lib/toast'),
  ]);
  render(
    <AppProvider>
      <p>Screen</p>
    </AppProvider>,
  );
  return { toast, TOASTER_AFTER_LOAD_MS };
}

/** Sonner's live region, which is only in the page once the toaster is mounted. */
const toasterRegion = () => document.querySelector('section[aria-label^="Notifications"]');

describe('AppProvider: the toaster loads after the first screen', () => {
  beforeEach(() => vi.useRealTimers());

  it('is not in the page while the first screen renders', async () => {
    await freshApp();
    expect(screen.getByText('Screen')).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 1_500)));
    expect(toasterRegion()).toBeNull();
  });

  it('comes in with the first notice, and shows that notice', async () => {
    const { toast } = await freshApp();
    act(() => void toast.success('Profile updated successfully'));
    expect(
      await screen.findByText('Profile updated successfully', {}, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(toasterRegion()).not.toBeNull();
  });

  it('comes in at the first interaction, before any notice', async () => {
    await freshApp();
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(toasterRegion()).toBeNull();
    act(() => void document.body.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true })));
    await vi.waitFor(() => expect(toasterRegion()).not.toBeNull(), { timeout: 5_000 });
  });

  it('comes in on its own a while after the page has loaded', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { TOASTER_AFTER_LOAD_MS } = await freshApp();
    // jsdom's document has finished loading, so the wait starts at mount
    act(() => vi.advanceTimersByTime(TOASTER_AFTER_LOAD_MS - 1));
    expect(toasterRegion()).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    vi.useRealTimers();
    await vi.waitFor(() => expect(toasterRegion()).not.toBeNull(), { timeout: 5_000 });
  });
});
