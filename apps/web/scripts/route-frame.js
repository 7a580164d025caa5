/*
 * Runs right after the first HTML's frames are parsed, before the first paint (a classic
 * script, same origin: allowed by the CSP's script-src 'self'): names the frame that the route
 * will show, as the route guards will decide: the shell for a signed-in customer, the sign-in
 * screen otherwise, none on /reset-password; on the dashboard, the shell shows the dashboard
 * loading, headed with the stored company name as DashboardView heads it (paths, the
 * auth-storage key and the placeholder as in src/config/paths.ts, the contract and
 * scripts/prerender-frames.tsx).
 */
/* global document, location */
(function () {
  var path = location.pathname;
  if (path === '/reset-password') return;
  var user = null;
  var signedIn = false;
  try {
    var stored = JSON.parse(localStorage.getItem('auth-storage') || 'null');
    signedIn = Boolean(stored && stored.state && stored.state.isAuthenticated);
    user = signedIn ? stored.state.user : null;
  } catch {
    signedIn = false;
  }
  var html = document.documentElement;
  html.setAttribute('data-route-frame', signedIn ? 'shell' : 'login');
  if (!signedIn || (path !== '/' && path !== '/dashboard')) return;
  html.setAttribute('data-route-screen', 'dashboard');
  var heading = document.querySelector('[data-frame-screen="dashboard"] h1');
  var company = (user && typeof user.company_name === 'string' && user.company_name) || 'User';
  if (heading) heading.textContent = heading.textContent.replace('{company}', company);
})();
