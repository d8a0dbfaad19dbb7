import { z } from "zod";
import { optionalText } from "./common";

export const clientInputSchema = z
  .object({
    name: z
      .string({ error: "Name is required" })
      .trim()
      .min(1, "Name is required")
      .max(200, "Name must be at most 200 characters"),
    email: z
      .string({ error: "Invalid email" })
      .trim()
      .max(200, "Invalid email")
      .pipe(z.email({ message: "Invalid email" })),
    company: optionalText(200),
    address: optionalText(500),
    isFavorite: z.boolean().optional(),
  })
  .strict();

export const favoriteInputSchema = z.object({ isFavorite: z.boolean() }).strict();
