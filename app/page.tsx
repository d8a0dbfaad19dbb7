export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Stellar Invoicing</h1>
      <p className="mt-4">
        Bill clients in XLM, USDC or EURC and get paid on the Stellar network. The JSON API lives
        under <code>/api</code>; see the README for signing in from a script.
      </p>
    </main>
  );
}
