/**
 * Loads a page from the server instead of switching routes in the app: the page's own response
 * headers then apply, as /checkout's content security policy, the only one that lets Stripe.js in.
 */
export function loadPage(url: string): void {
  window.location.assign(url);
}
