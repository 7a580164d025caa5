/** The browser leaves for the gateway's checkout page (a full-page redirect, spec §4). */
export function goToPayment(url: string) {
  window.location.assign(url);
}
