import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { jsonResponse } from '@/test/data';
import { PluginsList } from './plugins-list';

afterEach(() => {
  // restores only what the tests replaced: the console.error guard of the setup must stay
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  if (vi.isMockFunction(window.open)) vi.mocked(window.open).mockRestore();
});

const plugin = {
  _id: 'p1',
  platform: 'Windows',
  fileName: 'bank-connector-setup-2.4.1.cmd',
  version: '2.4.1',
  uploadedDate: '2026-06-01T10:00:00.000Z',
  downloadURL: '/api/plugins/p1/download?expires=1&sub=u&sig=s',
  size: 2048,
  sha256: 'a'.repeat(64),
};

describe('PluginsList', () => {
  it('lists installers with size and checksum, and downloads in a new tab', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(200, { success: true, plugins: [plugin] }),
    );
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderWithProviders(<PluginsList />);

    expect(screen.getByRole('heading', { name: 'Plugin Management' })).toBeInTheDocument();
    const row = (await screen.findByText('bank-connector-setup-2.4.1.cmd')).closest('tr')!;
    expect(row).toHaveTextContent('Windows');
    expect(row).toHaveTextContent('2 KB');
    expect(row).toHaveTextContent('a'.repeat(64));
    expect(row).toHaveTextContent('01/06/2026');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Platform',
      'File Name',
      'Version',
      'Uploaded Date',
      'Download',
    ]);

    await userEvent.click(within(row).getByRole('button', { name: /Download/ }));
    expect(open).toHaveBeenCalledWith(plugin.downloadURL, '_blank', 'noopener,noreferrer');
    expect(
      await screen.findByText('Downloading bank-connector-setup-2.4.1.cmd...'),
    ).toBeInTheDocument();
  });

  it('says when there are none, and when the call fails', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(
      jsonResponse(200, { success: true, plugins: [] }),
    );
    const { unmount } = renderWithProviders(<PluginsList />);
    expect(await screen.findByText('No plugins available')).toBeInTheDocument();
    unmount();

    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(
      jsonResponse(500, { success: false, message: 'Something went wrong. Please try again.' }),
    );
    renderWithProviders(<PluginsList />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch plugins');
  });
});
