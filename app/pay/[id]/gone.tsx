import { notFound } from "next/navigation";
import { NoScript } from "./no-script";
import { CheckoutNotFoundMessage } from "./not-found";

function NotFound(): never {
  notFound();
}

/**
 * An unknown checkout: status 404 and ./not-found.tsx through notFound(), and the same message
 * for browsers without JavaScript (./no-script.tsx), rendered before notFound() is thrown.
 */
export function CheckoutGone() {
  return (
    <>
      <NoScript>
        <CheckoutNotFoundMessage />
      </NoScript>
      <NotFound />
    </>
  );
}
