import { Alert, Card } from "@/components/ui/card";

/**
 * A payment link its owner deactivated (docs/decisions.md, Payment links, Managing a link):
 * no amount to choose, no quote, no pay button; the API refuses a new payment the same way.
 */
export function LinkInactive({ payeeName }: { payeeName: string }) {
  return (
    <Card title="Payment">
      <Alert kind="info">
        This link is no longer accepting payments. Ask {payeeName} for a new link if you still need
        to pay.
      </Alert>
    </Card>
  );
}
