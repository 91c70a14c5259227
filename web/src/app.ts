// The Palace board page: draws any variant the server loads with chessgroundx and plays through
// the JSON API of `palace serve`. The server decides everything (legal moves, refusals, the end);
// the page only shows it.
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Key, Piece, Role, Color, PiecesDiff } from 'chessgroundx/types';

interface Kind { name: string; letter: string }
interface State {
  id: string;
  variant: string;
  name: string;
  board: { files: number; ranks: number; diagonals: [string, string][]; all_diagonals: boolean };
  sides: { name: string; colour: string }[];
  kinds: Kind[];
  fen: string;
  turn: number;
  turn_name: string;
  check: boolean;
  check_square: string | null;
  pieces: { square: string; letter: string; side: number; kind: string }[];
  legal: Record<string, string[]>;
  legal_moves: string[];
  can_pass: boolean;
  moves: string[];
  last_move: [string, string] | null;
  result: { finished: boolean; kind: string; text: string; reason?: string; winner?: string };
  hands?: Record<string, Record<string, number>> | Record<string, number>[];
  engine: boolean;
}
interface VariantInfo { name: string; formations: Record<string, string[]> }

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const colours: Color[] = ['white', 'black'];
let state: State;
let ground: Api | undefined;
let editing = false;
let picked: Piece | undefined;
let variants: VariantInfo[] = [];

// The server takes changes only as JSON (web/README.md, "Same origin"), so every request but a
// GET carries a JSON body, if only {}.
async function api(method: string, path: string, body?: unknown): Promise<State> {
  const reads = method === 'GET';
  const response = await fetch(path, {
    method,
    headers: reads ? {} : { 'Content-Type': 'application/json' },
    body: reads ? undefined : JSON.stringify(body ?? {}),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error ?? `HTTP ${response.status}`);
  return answer;
}

// Palace names points "b10"; chessgroundx keys ranks from '1' upwards through ':' (10), ';' (11)...
const toKey = (point: string): Key => (point[0] + String.fromCharCode(48 + Number(point.slice(1)))) as Key;
const toPoint = (key: string): string => key[0] + String(key.charCodeAt(1) - 48);
const roleOf = (letter: string): Role => `${letter.toLowerCase()}-piece` as Role;

function say(text: string) { $('message').textContent = text; }

// Side colours and piece letters as CSS variables, so one stylesheet draws every variant.
function styleFor(s: State) {
  const root = document.documentElement.style;
  s.sides.forEach((side, i) => {
    root.setProperty(`--side${i}-colour`, side.colour);
    root.setProperty(`--side${i}-text`, ['white', 'yellow', 'ivory'].includes(side.colour) ? '#111' : '#fff');
  });
  let css = '';
  for (const kind of s.kinds) css += `.cg-wrap piece.${roleOf(kind.letter)} { --letter: "${kind.letter}"; }\n`;
  $('piece-letters').textContent = css;
}

// Boards whose pieces stand on points joined by lines (the variant lists its diagonal lines) get
// those lines drawn; the others are chequered.
function background(s: State): string {
  const { files, ranks, diagonals, all_diagonals } = s.board;
  const x = (f: number) => ((f + 0.5) * 100) / files;
  const y = (r: number) => ((ranks - r - 0.5) * 100) / ranks;
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" preserveAspectRatio="none">`;
  if (diagonals.length > 0 && !all_diagonals) {
    const line = (x1: number, y1: number, x2: number, y2: number) =>
      `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#4a3010" stroke-width="0.35" vector-effect="non-scaling-stroke"/>`;
    for (let f = 0; f < files; f++) svg += line(x(f), y(0), x(f), y(ranks - 1));
    for (let r = 0; r < ranks; r++) svg += line(x(0), y(r), x(files - 1), y(r));
    for (const [a, b] of diagonals) {
      const [ka, kb] = [toKey(a), toKey(b)];
      svg += line(x(ka.charCodeAt(0) - 97), y(ka.charCodeAt(1) - 49), x(kb.charCodeAt(0) - 97), y(kb.charCodeAt(1) - 49));
    }
  } else {
    for (let f = 0; f < files; f++)
      for (let r = 0; r < ranks; r++)
        if ((f + r) % 2 === 0)
          svg += `<rect x="${(f * 100) / files}" y="${((ranks - 1 - r) * 100) / ranks}" width="${100 / files}" height="${100 / ranks}" fill="#b58863"/>`;
  }
  return `url("data:image/svg+xml;utf8,${encodeURIComponent(svg + '</svg>')}")`;
}

function sizeBoard(s: State) {
  const wrap = $('board');
  const square = Math.min(56, Math.floor(640 / Math.max(s.board.files, s.board.ranks)));
  wrap.style.setProperty('--files', String(s.board.files));
  wrap.style.setProperty('--ranks', String(s.board.ranks));
  document.documentElement.style.setProperty('--board-width', `${square * s.board.files}px`);
  document.documentElement.style.setProperty('--board-height', `${square * s.board.ranks}px`);
}

function piecesOf(s: State): PiecesDiff {
  const diff: PiecesDiff = new Map();
  for (let f = 0; f < s.board.files; f++)
    for (let r = 1; r <= s.board.ranks; r++) diff.set(toKey(String.fromCharCode(97 + f) + r), undefined);
  for (const p of s.pieces) diff.set(toKey(p.square), { role: roleOf(p.letter), color: colours[p.side] });
  return diff;
}

function dests(s: State): Map<Key, Key[]> {
  const map = new Map<Key, Key[]>();
  for (const [from, targets] of Object.entries(s.legal)) map.set(toKey(from), targets.map(toKey));
  return map;
}

// The board and the panels, from the server's state.
function show(s: State, fresh = false) {
  const layoutChanged = !state || fresh || state.board.files !== s.board.files || state.board.ranks !== s.board.ranks || state.variant !== s.variant;
  state = s;
  if (layoutChanged) {
    styleFor(s);
    sizeBoard(s);
    ground?.destroy();
    ground = Chessground($('board'), {
      dimensions: { width: s.board.files, height: s.board.ranks },
      coordinates: false,
      // Any target may be tried: a move the rules refuse is sent anyway, so the server can say why.
      movable: { free: true, showDests: true, events: { after: onMove } },
      draggable: { enabled: true, showGhost: true },
      premovable: { enabled: false },
      events: { select: onSelect },
    });
    (document.querySelector('#board cg-board') as HTMLElement).style.backgroundImage = background(s);
  }
  ground!.setPieces(piecesOf(s));
  ground!.set({
    turnColor: colours[s.turn],
    lastMove: s.last_move ? s.last_move.map(toKey) : undefined,
    check: s.check_square ? [toKey(s.check_square)] : false,
    movable: { color: s.result.finished || editing ? (editing ? 'both' : undefined) : colours[s.turn], dests: editing ? new Map() : dests(s) },
    draggable: { deleteOnDropOff: editing },
  });
  const turn = s.sides[s.turn].name;
  const end = s.result.finished ? `Game over: ${s.result.text}.` : `${capital(turn)} to move${s.check ? `: ${capital(turn)} is in check!` : '.'}`;
  $('status').textContent = end;
  $('move-list').replaceChildren(...s.moves.map((m) => Object.assign(document.createElement('li'), { textContent: m })));
  ($('pass') as HTMLButtonElement).disabled = !s.can_pass;
  $('engine-controls').hidden = !s.engine;
  ($('fen') as HTMLInputElement).value = s.fen;
  showHands(s);
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

// Hands, where the variant has them: pieces held in reserve, listed by side.
function showHands(s: State) {
  const [top, bottom] = [$('hand-top'), $('hand-bottom')];
  top.textContent = bottom.textContent = '';
  if (!s.hands) return;
  const list = (side: number) => {
    const hand = (Array.isArray(s.hands) ? s.hands[side] : (s.hands as Record<string, Record<string, number>>)[s.sides[side].name]) ?? {};
    const items = Object.entries(hand).filter(([, n]) => n > 0).map(([piece, n]) => `${piece}×${n}`);
    return `${capital(s.sides[side].name)} holds: ${items.join(' ') || 'nothing'}`;
  };
  const flipped = ground?.state.orientation === 'black';
  top.textContent = list(flipped ? 0 : 1);
  bottom.textContent = list(flipped ? 1 : 0);
}

async function act(method: string, path: string, body?: unknown) {
  try {
    const next = await api(method, `/api/games/${state.id}${path}`, body);
    say('');
    show(next);
  } catch (e) {
    say((e as Error).message);
    show(state);  // puts back a piece the refused move had moved
  }
}

async function onMove(orig: Key, dest: Key) {
  if (editing) return syncEditorFen();
  const prefix = toPoint(orig) + toPoint(dest);
  // Several legal moves share from and to only when a promotion is chosen: ask which.
  const choices = state.legal_moves.filter((m) => m.startsWith(prefix) && !/[0-9]/.test(m.charAt(prefix.length)));
  let move = prefix;
  if (choices.length > 1) move = window.prompt(`Promote to? (${choices.map((m) => m.slice(prefix.length)).join(', ')})`, choices[0].slice(prefix.length)) ?? '';
  else if (choices.length === 1) move = choices[0];
  if (choices.length > 1) move = prefix + move;
  await act('POST', '/moves', { move });
}

// In the editor, a picked piece from the palette is put on the clicked point.
function onSelect(key: Key) {
  if (!editing || !picked) return;
  ground!.setPieces(new Map([[key, { ...picked }]]));
  ground!.unselect();
  syncEditorFen();
}

function boardFen(): string {
  const { files, ranks } = state.board;
  const rows: string[] = [];
  for (let r = ranks; r >= 1; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < files; f++) {
      const piece = ground!.state.boardState.pieces.get(toKey(String.fromCharCode(97 + f) + r));
      if (!piece) { empty++; continue; }
      if (empty) row += empty;
      empty = 0;
      const letter = piece.role.charAt(0);
      const upper = state.sides[colours.indexOf(piece.color)] && sideIsUpper(colours.indexOf(piece.color));
      row += upper ? letter.toUpperCase() : letter;
    }
    rows.push(row + (empty ? empty : ''));
  }
  return rows.join('/');
}

// A side writes its letters in upper case when the set-up shows it so.
function sideIsUpper(side: number): boolean {
  const sample = state.pieces.find((p) => p.side === side);
  return sample ? sample.letter === sample.letter.toUpperCase() : side === 0;
}

// The FEN of the edited position: its board, the chosen side to move, the rest of the fields kept.
function syncEditorFen() {
  const fields = state.fen.split(' ');
  fields[0] = boardFen();
  if (fields.length > 1) fields[1] = ($('editor-turn') as HTMLSelectElement).value;
  ($('fen') as HTMLInputElement).value = fields.join(' ');
}

function toggleEditor() {
  editing = !editing;
  picked = undefined;
  $('editor').hidden = !editing;
  $('edit').textContent = editing ? 'Stop editing' : 'Edit position';
  if (editing) {
    const turnField = state.fen.split(' ')[1] ?? 'w';
    $('editor-turn').replaceChildren(...state.sides.map((side, i) => new Option(capital(side.name), i === 0 ? 'w' : 'b', false, (i === 0 ? 'w' : 'b') === turnField)));
    const palette = $('palette');
    palette.replaceChildren();
    state.sides.forEach((_, side) => {
      for (const kind of state.kinds) {
        const letter = sideIsUpper(side) ? kind.letter.toUpperCase() : kind.letter.toLowerCase();
        const button = Object.assign(document.createElement('button'), { textContent: letter, title: `${state.sides[side].name} ${kind.name}` });
        button.onclick = () => {
          picked = { role: roleOf(kind.letter), color: colours[side] };
          palette.querySelectorAll('button').forEach((b) => b.classList.remove('picked'));
          button.classList.add('picked');
        };
        palette.append(button);
      }
      palette.append(document.createElement('br'));
    });
  }
  show(state);
  if (editing) syncEditorFen();
}

function showFormationChoices() {
  const info = variants.find((v) => v.name === ($('variant') as HTMLSelectElement).value);
  const span = $('formations');
  span.replaceChildren();
  for (const [side, names] of Object.entries(info?.formations ?? {})) {
    const select = document.createElement('select');
    select.id = `formation-${side}`;
    select.dataset.side = side;
    select.append(...names.map((n) => new Option(n, n)));
    const label = Object.assign(document.createElement('label'), { textContent: `${capital(side)} formation ` });
    label.append(select);
    span.append(label);
  }
}

async function newGame() {
  const formations: Record<string, string> = {};
  document.querySelectorAll<HTMLSelectElement>('#formations select').forEach((s) => (formations[s.dataset.side!] = s.value));
  try {
    const s = await api('POST', '/api/games', { variant: ($('variant') as HTMLSelectElement).value, formations });
    say('');
    if (editing) toggleEditor();
    show(s, true);
    history.replaceState(null, '', `#${s.id}`);
  } catch (e) {
    say((e as Error).message);
  }
}

async function start() {
  const style = document.createElement('style');
  style.id = 'piece-letters';
  document.head.append(style);
  const list = await (await fetch('/api/variants')).json();
  variants = list.variants;
  const select = $('variant') as HTMLSelectElement;
  select.append(...variants.map((v) => new Option(v.name, v.name, false, v.name === list.default)));
  select.onchange = showFormationChoices;
  showFormationChoices();
  $('level').append(...Array.from({ length: 10 }, (_, i) => new Option(String(i + 1), String(i + 1), false, i === 2)));
  $('new-game').onclick = newGame;
  $('undo').onclick = () => act('POST', '/undo');
  $('pass').onclick = () => act('POST', '/pass');
  $('engine').onclick = () => act('POST', '/engine', { level: Number(($('level') as HTMLSelectElement).value) });
  $('flip').onclick = () => { ground?.toggleOrientation(); showHands(state); };
  $('edit').onclick = toggleEditor;
  $('editor-turn').onchange = syncEditorFen;
  $('editor-clear').onclick = () => {
    const empty: PiecesDiff = new Map();
    for (const key of ground!.state.boardState.pieces.keys()) empty.set(key, undefined);
    ground!.setPieces(empty);
    syncEditorFen();
  };
  $('editor-apply').onclick = async () => {
    const fen = ($('fen') as HTMLInputElement).value;
    editing = false;
    $('editor').hidden = true;
    $('edit').textContent = 'Edit position';
    await act('PUT', '/fen', { fen });
  };
  const id = location.hash.slice(1);
  if (id) {
    try {
      show(await api('GET', `/api/games/${id}`), true);
      return;
    } catch (e) {
      say((e as Error).message);
    }
  }
  await newGame();
}

start();
