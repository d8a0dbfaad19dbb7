import { json, requestIdFrom } from "@/lib/http/endpoint";
import { ERROR_TABLE } from "@/lib/http/errors";
import { errorBody, pickForm } from "@/lib/http/forms";

const NOT_FOUND = { ...ERROR_TABLE.not_found, message: "Not found" };

/** Unknown /api paths answer JSON, not Next.js's HTML 404 page. */
const notFound = async (req: Request) =>
  json(
    errorBody(pickForm(new URL(req.url)), NOT_FOUND),
    NOT_FOUND.status,
    requestIdFrom(req.headers),
  );

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
