import { useMutation } from '@tanstack/react-query';
import { exportPaths, type ExportLinkRequest } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

/** A short-lived signed link to the export: opening it starts the download. */
export const createExportLink = (input: ExportLinkRequest) =>
  api.post(exportPaths.link, input, { schema: responseSchema('ExportLinkResponseSchema') });

export const useCreateExportLink = () => useMutation({ mutationFn: createExportLink });
