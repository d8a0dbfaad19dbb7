/** A tiny JSON client for the tests: `const api = client(app.url, token)`. */
export type ApiResponse = { status: number; body: any; headers: Headers };

export function client(baseUrl: string, token?: string) {
  const call = async (method: string, path: string, body?: unknown): Promise<ApiResponse> => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(baseUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    get: (path: string) => call("GET", path),
    post: (path: string, body?: unknown) => call("POST", path, body),
    patch: (path: string, body?: unknown) => call("PATCH", path, body),
    put: (path: string, body?: unknown) => call("PUT", path, body),
    delete: (path: string) => call("DELETE", path),
  };
}

export type Api = ReturnType<typeof client>;

/** A valid Form B invoice body; override any field. */
export function invoiceBody(overrides: Record<string, unknown> = {}) {
  return {
    clientName: "Ada Client",
    clientEmail: "ada@example.com",
    title: "Website work",
    currency: "XLM",
    lineItems: [
      { description: "Design", quantity: "2", rate: "150.5" },
      { description: "Build", quantity: "1", rate: "700" },
    ],
    ...overrides,
  };
}
