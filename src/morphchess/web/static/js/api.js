// The JSON API of the morphchess server: one function per call, errors thrown as ApiError.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function call(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try {
      const detail = JSON.parse(text).detail;
      message = typeof detail === "string" ? detail
        : detail.map((d) => `${d.loc.slice(1).join(".")}: ${d.msg}`).join("; ");
    } catch (e) { /* not JSON: keep the text */ }
    throw new ApiError(response.status, message);
  }
  const type = response.headers.get("Content-Type") || "";
  return type.includes("json") ? JSON.parse(text) : text;
}

export const api = {
  levels: () => call("GET", "/api/levels"),
  variants: () => call("GET", "/api/variants"),
  variant: (key) => call("GET", `/api/variants/${encodeURIComponent(key)}`),
  define: (definition) => call("POST", "/api/variants", { definition }),
  newGame: (spec) => call("POST", "/api/games", spec),
  game: (id) => call("GET", `/api/games/${id}`),
  setPlayers: (id, players) => call("PATCH", `/api/games/${id}`, players),
  position: (id, ply) => call("GET", `/api/games/${id}/positions/${ply}`),
  move: (id, move) => call("POST", `/api/games/${id}/moves`, { move }),
  undo: (id, plies) => call("POST", `/api/games/${id}/undo`, { plies }),
  engine: (id, level) => call("POST", `/api/games/${id}/engine`, { level }),
  stop: (id) => call("POST", `/api/games/${id}/stop`),
  record: (id, format) => call("GET", `/api/games/${id}/record?format=${format}`),
  importRecord: (spec) => call("POST", "/api/import", spec),
};
