// The workshop's requests to `palace serve` (web/README.md): JSON both ways, a refusal thrown as a
// ServerError that keeps the place the server named.

export interface Place { file?: string; line?: number; column?: number }
export class ServerError extends Error {
  constructor(message: string, readonly place: Place) { super(message); }
}

// The server takes changes only as JSON ("Same origin"), so every request but a GET carries one.
export async function api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const reads = method === 'GET';
  const response = await fetch(path, {
    method,
    headers: reads ? {} : { 'Content-Type': 'application/json' },
    body: reads ? undefined : JSON.stringify(body ?? {}),
  });
  const answer = await response.json();
  if (!response.ok) throw new ServerError(answer.error ?? `HTTP ${response.status}`, { file: answer.file, line: answer.line, column: answer.column });
  return answer as T;
}

// A game's state, as much of it as the preview draws (the full shape is the game page's).
export interface State {
  id: string;
  name: string;
  board: { files: number; ranks: number; diagonals: [string, string][]; all_diagonals: boolean };
  sides: { name: string; colour: string }[];
  kinds: { name: string; letter: string }[];
  fen: string;
  turn: number;
  check_square: string | null;
  pieces: { square: string; letter: string; side: number; kind: string }[];
  legal: Record<string, string[]>;
  legal_moves: string[];
  moves: string[];
  last_move: [string, string] | null;
  result: { finished: boolean; text: string };
}

export interface Draft { yaml: string; scripts: Record<string, string> }

export interface TestResult {
  passed: number;
  failed: number;
  cases: { name: string; line: number; passed: boolean; failures: { line: number; column: number; message: string }[] }[];
}
