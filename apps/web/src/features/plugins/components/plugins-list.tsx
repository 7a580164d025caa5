import { Download, PackageOpen } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { Plugin } from '@portal/contract';
import { formatDate } from '@/lib/format';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { EmptyState } from '@/ui/empty-state';
import { PageTitle } from '@/ui/page-title';
import { Skeleton } from '@/ui/spinner';
import { DataTable, RowActions, type Column } from '@/ui/table';
import { usePlugins } from '../api/get-plugins';
import { formatSize } from './format-size';

function download(plugin: Plugin) {
  // the signed link works without the bearer token a new tab would not carry
  window.open(plugin.downloadURL, '_blank', 'noopener,noreferrer');
  toast.success(`Downloading ${plugin.fileName}...`);
}

const columns: Column<Plugin>[] = [
  { header: 'Platform', cell: (plugin) => <span className="font-medium">{plugin.platform}</span> },
  {
    header: 'File Name',
    skeleton: (
      <div>
        <Skeleton className="h-5 w-24" />
        <Skeleton className="mt-2 h-4 w-full max-w-72" />
      </div>
    ),
    cell: (plugin) => (
      <>
        <p className="break-words">{plugin.fileName}</p>
        <p className="mt-1 text-xs text-slate-600">{formatSize(plugin.size)}</p>
        {/* narrow enough that the table fits, so the checksum wraps */}
        <p className="mt-0.5 max-w-xs text-xs text-slate-600">
          SHA-256{' '}
          <code className="select-all break-all font-mono text-slate-700">{plugin.sha256}</code>
        </p>
      </>
    ),
  },
  { header: 'Version', cell: (plugin) => plugin.version },
  { header: 'Uploaded Date', cell: (plugin) => formatDate(plugin.uploadedDate) },
  {
    header: 'Download',
    actions: true,
    cell: (plugin) => (
      <RowActions>
        <Button
          size="sm"
          onClick={() => download(plugin)}
          aria-label={`Download ${plugin.fileName}`}
        >
          <Download className="h-4 w-4" aria-hidden="true" />
          Download
        </Button>
      </RowActions>
    ),
  },
];

/** Spec §2 Plugins screen, with each file's size and SHA-256 so a download can be verified. */
export function PluginsList() {
  const { data: plugins, isPending, isError } = usePlugins();

  return (
    <div>
      <PageTitle>Plugin Management</PageTitle>
      <Card>
        {isError ? (
          <p role="alert" className="px-5 py-8 text-center text-sm text-red-700">
            Failed to fetch plugins
          </p>
        ) : !isPending && plugins.length === 0 ? (
          <EmptyState icon={<PackageOpen className="h-10 w-10" />} title="No plugins available" />
        ) : (
          <DataTable
            caption="Plugin installers"
            columns={columns}
            rows={plugins ?? []}
            rowKey={(plugin) => plugin._id}
            loading={isPending}
          />
        )}
      </Card>
    </div>
  );
}
