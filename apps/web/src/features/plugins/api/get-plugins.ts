import { queryOptions, useQuery } from '@tanstack/react-query';
import { PLUGIN_LINK_TTL_SECONDS, pluginPaths } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export const getPlugins = async () =>
  (await api.get(pluginPaths.list, { schema: responseSchema('PluginsResponseSchema') })).plugins;

// download links expire: fetch fresh ones a minute before they would
const LINK_REFRESH_MS = (PLUGIN_LINK_TTL_SECONDS - 60) * 1000;

export const getPluginsQueryOptions = () =>
  queryOptions({
    queryKey: ['plugins'],
    queryFn: getPlugins,
    staleTime: LINK_REFRESH_MS,
    refetchInterval: LINK_REFRESH_MS,
  });

export const usePlugins = () => useQuery(getPluginsQueryOptions());
