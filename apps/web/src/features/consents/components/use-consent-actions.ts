import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Consent } from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { useConsent } from '../api/get-consent';
import { useDeleteConsent } from '../api/delete-consent';
import { useConsentPause } from '../api/pause-consent';
import { useReconnectConsent } from '../api/reconnect-consent';
import { useRefreshConsentStatus } from '../api/refresh-consent-status';
import { withParam } from './search-params';

/**
 * What a consent's row and its details dialog do: show its details, refresh its status, pause or
 * resume it, ask for a reconnect and delete it, each with the dialog it opens. `onDeleted` runs after a delete.
 */
export function useConsentActions({ onDeleted }: { onDeleted(): void }) {
  const [details, setDetails] = useState<Consent | null>(null);
  const [toDelete, setToDelete] = useState<Consent | null>(null);
  const [toReconnect, setToReconnect] = useState<Consent | null>(null);
  const [params, setParams] = useSearchParams();
  // a link (the dashboard's Coming up card) names a consent to reconnect: its dialog opens
  const linked = params.get('reconnect');
  const linkedConsent = useConsent(linked);
  const reconnectShown = toReconnect ?? (linked ? (linkedConsent.data ?? null) : null);
  const reconnect = useReconnectConsent();
  const refresh = useRefreshConsentStatus();
  const remove = useDeleteConsent();
  const pause = useConsentPause();

  useEffect(() => {
    if (linkedConsent.isError) {
      toast.error('Failed to open the consent to reconnect', {
        description: errorMessage(linkedConsent.error, '') || undefined,
      });
    }
  }, [linkedConsent.isError, linkedConsent.error]);

  function refreshStatus(consent: Consent) {
    refresh.mutate(consent.consentId, {
      onSuccess: (updated) => {
        toast.success('Consent status refreshed!');
        setDetails((open) => (open?._id === updated._id ? updated : open));
      },
      onError: (error) =>
        toast.error('Failed to refresh consent status', {
          description: errorMessage(error, '') || undefined,
        }),
    });
  }

  function togglePause(consent: Consent) {
    const action = consent.pausedAt ? 'resume' : 'pause';
    pause.mutate(
      { id: consent._id, action },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          setDetails((open) => (open?._id === answer.data._id ? answer.data : open));
        },
        onError: (error) =>
          toast.error(`Failed to ${action} consent`, {
            description: errorMessage(error, '') || undefined,
          }),
      },
    );
  }

  function confirmDelete() {
    if (!toDelete) return;
    remove.mutate(toDelete._id, {
      onSuccess: () => {
        toast.success('Consent deleted successfully!');
        onDeleted();
        setToDelete(null);
        setDetails(null);
      },
      onError: (error) => {
        toast.error('Failed to delete consent', {
          description: errorMessage(error, '') || undefined,
        });
        setToDelete(null);
      },
    });
  }

  function closeReconnect() {
    setToReconnect(null);
    if (linked) setParams((current) => withParam(current, 'reconnect', null), { replace: true });
  }

  function confirmReconnect(consent: Consent) {
    reconnect.mutate(consent._id, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        setDetails((open) => (open?._id === answer.data._id ? answer.data : open));
        closeReconnect();
      },
      onError: (error) =>
        toast.error('Failed to request a reconnect', {
          description: errorMessage(error, '') || undefined,
        }),
    });
  }

  return {
    details,
    showDetails: setDetails,
    closeDetails: () => setDetails(null),
    refreshStatus,
    refreshing: refresh.isPending,
    refreshingId: refresh.isPending ? refresh.variables : null,
    togglePause,
    pausing: pause.isPending,
    toDelete,
    askDelete: setToDelete,
    cancelDelete: () => setToDelete(null),
    confirmDelete,
    deleting: remove.isPending,
    reconnectShown,
    askReconnect: setToReconnect,
    closeReconnect,
    confirmReconnect,
    reconnecting: reconnect.isPending,
  };
}
