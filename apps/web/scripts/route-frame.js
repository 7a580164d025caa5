/*
 * Runs before the first paint (a classic script in <head>, same origin: allowed by the CSP's
 * script-src 'self'): names the frame of the first HTML that the route will show, as the route
 * guards will decide: the shell for a signed-in customer, the sign-in screen otherwise, none on
 * /reset-password (paths and the auth-storage key as in src/config/paths.ts and the contract).
 */
/* global document, location */
(function () {
  var path = location.pathname;
  if (path === '/reset-password') return;
  var signedIn = false;
  try {
    var stored = JSON.parse(localStorage.getItem('auth-storage') || 'null');
    signedIn = Boolean(stored && stored.state && stored.state.isAuthenticated);
  } catch {
    signedIn = false;
  }
  document.documentElement.setAttribute('data-route-frame', signedIn ? 'shell' : 'login');
})();
