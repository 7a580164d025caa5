/** The browser leaves for the gateway's page: checkout, or a mandate's authorisation (a full-page redirect, spec §4). */
export function goToPayment(url: string) {
  window.location.assign(url);
}
