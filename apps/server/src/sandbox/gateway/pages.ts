import { formatPaise } from '@portal/contract';
const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// no scripts: the app's content security policy allows none inline, and forms need none
const STYLE = `
body{margin:0;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f1f5f9;color:#0f172a}
main{max-width:28rem;margin:3rem auto;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{font-size:1.25rem;margin:0 0 .25rem}
p.note{margin:0 0 1rem;color:#475569;font-size:.875rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.5rem 1rem;margin:1rem 0 1.5rem;font-size:.9rem}
dt{color:#475569}dd{margin:0;font-weight:600;word-break:break-all}
.amount{font-size:1.5rem}
.actions{display:flex;gap:.75rem}
form{flex:1}
button,a.button{display:block;width:100%;box-sizing:border-box;padding:.75rem;border-radius:.5rem;font-size:1rem;font-weight:600;cursor:pointer;text-align:center;text-decoration:none}
button.pay{background:#15803d;color:#fff;border:0}
button.fail{background:#fff;color:#b91c1c;border:1px solid #b91c1c}
a.button{background:#1d4ed8;color:#fff}
button:focus-visible,a:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
fieldset{border:1px solid #e2e8f0;border-radius:.5rem;margin:0 0 1.5rem;padding:.75rem 1rem}
legend{font-weight:600;padding:0 .25rem}
label{display:block;padding:.35rem 0}
input:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
p.alert{margin:0 0 1rem;color:#b91c1c;font-weight:600}
`;

function layout(title: string, body: string) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

export interface CheckoutPage {
  merchant: string;
  linkId: string;
  orderRef: string;
  description: string;
  amountPaise: number;
  customer: { name?: string; email?: string; contact?: string };
  actionBase: string;
}

/** The sandbox's hosted checkout: who is paid, for what, how much; then Pay or Fail. */
export function renderCheckoutPage(p: CheckoutPage): string {
  const row = (label: string, value: string, cls = '') =>
    `<dt>${escape(label)}</dt><dd${cls ? ` class="${cls}"` : ''}>${escape(value)}</dd>`;
  return layout(
    `Pay ${p.merchant}`,
    `<h1>Sandbox checkout</h1>
<p class="note">Test payment gateway: no money is moved.</p>
<dl>
${row('Merchant', p.merchant)}
${row('Order', p.orderRef)}
${row('Description', p.description)}
${p.customer.name ? row('Customer', p.customer.name) : ''}
${p.customer.email ? row('Email', p.customer.email) : ''}
${row('Amount', formatPaise(p.amountPaise), 'amount')}
</dl>
<div class="actions">
<form method="post" action="${escape(p.actionBase)}/pay"><button type="submit" class="pay">Pay ${escape(formatPaise(p.amountPaise))}</button></form>
<form method="post" action="${escape(p.actionBase)}/fail"><button type="submit" class="fail">Fail payment</button></form>
</div>`,
  );
}

export function renderClosedPage(merchant: string, status: string, portalUrl: string): string {
  const text =
    status === 'paid'
      ? 'This payment link has already been paid.'
      : `This payment link is ${status}.`;
  return layout(
    `Pay ${merchant}`,
    `<h1>Sandbox checkout</h1>
<p class="note">${escape(text)}</p>
<a class="button" href="${escape(portalUrl)}/orders?tab=history">Back to the portal</a>`,
  );
}

/** The ways the hosted page offers to authorise a mandate, as Razorpay names them. */
export const MANDATE_METHODS = {
  upi: 'UPI Autopay',
  emandate: 'E-mandate (net banking or debit card)',
  card: 'Card',
} as const;
export type MandateMethod = keyof typeof MANDATE_METHODS;

export interface SubscriptionPage {
  merchant: string;
  plan: string;
  description: string | null;
  /** Per cycle: the plan's amount times the quantity. */
  amountPaise: number;
  /** How often: `every month`, `every 3 weeks`. */
  every: string;
  cycles: number;
  /** When the first charge is made: on authorising, or the day the subscription starts. */
  firstCharge: string;
  /** The last authorisation failed: the customer is trying again. */
  failedBefore: boolean;
  /** A charge failed: the form pays it by the method chosen now. */
  due?: boolean;
  action: string;
}

/** The sandbox's hosted authorisation: what the mandate allows, then how to authorise it. */
export function renderSubscriptionPage(p: SubscriptionPage): string {
  const row = (label: string, value: string) =>
    `<dt>${escape(label)}</dt><dd>${escape(value)}</dd>`;
  const methods = Object.entries(MANDATE_METHODS)
    .map(
      ([value, label], i) =>
        `<label><input type="radio" name="method" value="${value}"${i === 0 ? ' checked' : ''}> ${escape(label)}</label>`,
    )
    .join('\n');
  return layout(
    `Subscribe to ${p.merchant}`,
    `<h1>Sandbox subscription</h1>
<p class="note">Test payment gateway: no money is moved.</p>
${
  p.due
    ? '<p class="alert" role="alert">The last charge did not go through. Choose how to pay it.</p>'
    : p.failedBefore
      ? '<p class="alert" role="alert">The last authorisation failed and nothing was charged. You can try again.</p>'
      : ''
}
<dl>
${row('Merchant', p.merchant)}
${row('Plan', p.plan)}
${p.description ? row('Description', p.description) : ''}
${row('Amount', `${formatPaise(p.amountPaise)} ${p.every}`)}
${row('Cycles', String(p.cycles))}
${row('First charge', p.firstCharge)}
</dl>
<form method="post" action="${escape(p.action)}">
<fieldset>
<legend>${p.due ? 'Pay the charge due with' : 'Authorise the mandate with'}</legend>
${methods}
</fieldset>
<div class="actions">
<button type="submit" name="outcome" value="authorise" class="pay">${p.due ? 'Pay' : 'Authorise'}</button>
<button type="submit" name="outcome" value="fail" class="fail">${p.due ? 'Fail payment' : 'Fail authorisation'}</button>
</div>
</form>`,
  );
}

/** A subscription past its authorisation: what became of it. */
export function renderSubscriptionStatusPage(
  merchant: string,
  status: string,
  method: MandateMethod | null,
  portalUrl: string,
): string {
  const by = method ? ` with ${MANDATE_METHODS[method]}` : '';
  const text =
    status === 'authenticated'
      ? `The mandate is authorised${by}: the first charge is made when the subscription starts.`
      : status === 'active'
        ? `The mandate is authorised${by} and the subscription is active.`
        : `This subscription is ${status}.`;
  return layout(
    `Subscribe to ${merchant}`,
    `<h1>Sandbox subscription</h1>
<p class="note">${escape(text)}</p>
<a class="button" href="${escape(portalUrl)}/plans">Back to the portal</a>`,
  );
}
