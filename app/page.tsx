import Link from "next/link";

export default function Home() {
  return (
    <main className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-3xl font-semibold">Get paid in crypto, simply.</h1>
      <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">
        Bill clients in XLM, USDC or EURC. They pay from a link with Freighter or any mobile wallet;
        you see it on the Stellar ledger seconds later.
      </p>
      <div className="mt-8 flex gap-3">
        <Link
          href="/dashboard"
          className="rounded-md bg-indigo-600 px-5 py-3 font-medium text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
        >
          Open your dashboard
        </Link>
        <Link
          href="/docs"
          className="rounded-md border border-slate-300 px-5 py-3 font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          API reference
        </Link>
      </div>
    </main>
  );
}
