/**
 * A JSON Response that keeps its text at hand, so server.ts's front (lib/http/front.ts) writes
 * the string itself instead of reading the body stream: reading it encodes the text into one
 * buffer and copies it into another, both allocated outside the JavaScript heap and freed
 * only when a collection finds them. Under load (the invoice list's pages are tens of
 * kilobytes) those buffers fragmented the C heap into about 12 MB that stayed resident after
 * the load (ARCHITECTURE.md, Memory). Next.js, which serves the first request and every
 * request on hosts without the front, reads the body as usual.
 */
const TEXT = Symbol.for("stellar-invoicing.response-text");

type WithText = Response & { [TEXT]?: string };

export function textResponse(text: string, init: ResponseInit): Response {
  const response: WithText = new Response(text, init);
  response[TEXT] = text;
  return response;
}

/** The text a `textResponse` was made with, if the response is one and nothing read it. */
export function responseText(response: Response): string | undefined {
  return response.bodyUsed ? undefined : (response as WithText)[TEXT];
}
