import { PluginsList } from '@/features/plugins/components/plugins-list';

export function Component() {
  return <PluginsList />;
}
