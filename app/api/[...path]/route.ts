import { json } from "@/lib/http/endpoint";
import { errorBody, pickForm } from "@/lib/http/forms";

/** Unknown /api paths answer JSON, not Next.js's HTML 404 page. */
const notFound = async (req: Request) =>
  json(
    errorBody(pickForm(new URL(req.url)), {
      status: 404,
      code: "NOT_FOUND",
      message: "Not found",
    }),
    404,
    req.headers.get("x-request-id") ?? crypto.randomUUID(),
  );

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
