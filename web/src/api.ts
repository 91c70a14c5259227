// The JSON API of `palace serve` (web/README.md): what the page reads, and how it asks.

export interface Kind {
  name: string;
  letter: string;
  royal: boolean;
  value: number;
  written?: string;  // "+P": a promoted piece's FEN text
  face?: [string, string];  // the glyph drawn on it, per side
}
export interface Side { name: string; colour: string; forward: 'up' | 'down' }
export interface BoardPiece { square: string; letter: string; side: number; kind: string }
export type Hands = Record<string, Record<string, number>>;
export interface Result {
  finished: boolean;
  kind: 'win' | 'draw' | 'unfinished';
  text: string;
  reason?: string;
  winner?: string;
  claimable?: string;
  // The repetition behind the state, in a sentence: "Red has chased the horse on c7 with every move
  // for 2 cycles; Red must vary", "the position has occurred 3 times; Black may claim a draw".
  explanation?: string;
  points?: [number, number];  // each side's total, where counting decided the game
}

// The clock the server keeps: all the time each side has for its move (main time and byo-yomi
// periods), as of the answer, and the side whose clock runs.
export interface ClockState {
  initial_ms: number;
  increment_ms: number;
  byoyomi_ms: number;
  periods: number;
  left_ms: [number, number];
  periods_left: [number, number];
  running: string | null;
}

export interface State {
  id: string;
  variant: string;
  name: string;
  formations: Record<string, string>;  // the formation each side chose, by side name
  board: {
    files: number; ranks: number; diagonals: [string, string][]; all_diagonals: boolean; ranks_from: 'bottom' | 'top';
    holes: string[];  // the points of the rectangle that are not on the board
  };
  sides: Side[];
  kinds: Kind[];
  fen: string;
  start_fen: string;
  turn: number;
  turn_name: string;
  check: boolean;
  check_square: string | null;
  pieces: BoardPiece[];
  legal: Record<string, string[]>;
  legal_moves: string[];
  can_pass: boolean;
  passing: boolean;  // passing is a move of this game at all
  pass_refusal?: string;  // why not now, where passing is a move
  pass_warning?: string;  // what a pass now may end in
  moves: string[];
  moves_notation: string[];
  // How the game's players write its moves ("kif", "chinese", "korean", or the records' own), and
  // their labels of the board's files (from file a) and ranks (from rank 1), empty where Palace's own;
  // `side_files`, where each side numbers the files its own way (Xiangqi), each side's labels.
  players_notation: { name: string; moves: string[]; files: string[]; ranks: string[]; side_files: string[][] };
  last_move: [string | null, string] | null;
  result: Result;
  hands?: Hands;
  engine: boolean;
  move_example: string;
  record_formats: string[];  // the record files its players keep, PGN first (GET .../record/FORMAT)
  engine_move?: string;
  plays: string[];  // the sides this address moves: both (the creator's), one (a seat's) or none (a spectator's)
  links: Record<string, string>;  // the addresses it may share, by side name and "spectator"
  seats?: Record<string, string>;  // a new game's seat keys
  clock?: ClockState;
  draw_offer?: string;  // the side whose draw offer stands
}

// A position of the game's past, for review (GET /api/games/ID/position/N).
export interface PastPosition {
  ply: number;
  fen: string;
  turn: number;
  pieces: BoardPiece[];
  last_move: [string | null, string] | null;
  hands?: Hands;
}

// A game written as a record file (GET /api/games/ID/record/FORMAT).
export interface RecordFile { format: string; file: string; text: string }

export interface VariantInfo { name: string; description: string; formations: Record<string, string[]> }
export interface VariantList { variants: VariantInfo[]; default: string }

// Where the cause of a refusal lies, when the server names a file's line (a workshop draft's error).
export interface Place { file?: string; line?: number; column?: number }

// An answer the server refused, with its status (404: no such game) and the place it names, if any.
export class ApiError extends Error {
  constructor(message: string, readonly status: number, readonly place: Place = {}) { super(message); }
}

// The server takes changes only as JSON (web/README.md, "Same origin"), so every request but a
// GET carries a JSON body, if only {}; a record file alone comes as its bytes (postRecord).
export async function api<T = State>(method: string, path: string, body?: unknown): Promise<T> {
  const reads = method === 'GET';
  return answered<T>(await fetch(path, {
    method,
    headers: reads ? {} : { 'Content-Type': 'application/json' },
    body: reads ? undefined : JSON.stringify(body ?? {}),
  }));
}

// A record file's bytes, whatever their encoding (the server reads Shift_JIS, GBK, Big5...), made a
// game of `variant`.
export async function postRecord(variant: string, file: File): Promise<State> {
  const query = new URLSearchParams({ variant, file: file.name });
  return answered<State>(await fetch(`/api/games/import?${query}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/octet-stream' },
    body: await file.arrayBuffer(),
  }));
}

async function answered<T>(response: Response): Promise<T> {
  const answer = await response.json();
  if (!response.ok) {
    throw new ApiError(answer.error ?? `HTTP ${response.status}`, response.status,
                       { file: answer.file, line: answer.line, column: answer.column });
  }
  return answer;
}

export const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
