/** The 404 message for unknown, deleted and expired-link checkouts. */
export function CheckoutNotFoundMessage() {
  return (
    <main className="mx-auto max-w-xl px-4 py-16 text-center">
      <p className="text-sm font-semibold text-indigo-700 dark:text-indigo-300">404</p>
      <h1 className="mt-2 text-2xl font-semibold">Invoice not found</h1>
      <p className="mt-3 text-slate-700 dark:text-slate-300">
        This invoice or payment link does not exist, has expired, or was deleted. Ask the sender for
        a new link.
      </p>
      {/* A plain link: this markup is also served without JavaScript (./gone.tsx). */}
      <a
        href="/"
        className="mt-6 inline-block rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:border-slate-600 dark:hover:bg-slate-800"
      >
        Go to the home page
      </a>
    </main>
  );
}

/** 404 for unknown, deleted and expired-link checkouts (with JavaScript; ./gone.tsx without). */
export default function CheckoutNotFound() {
  return <CheckoutNotFoundMessage />;
}
