// The Palace board page: draws any variant the server loads with chessgroundx and plays through
// the JSON API of `palace serve`. The server decides everything (legal moves, refusals, the end);
// the page only shows it. board/ draws (pieces, board, hands, promotion picker), game/ keeps the
// game around it (move list, result, clocks, the address and other tabs).
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Color, Key, Piece, PiecesDiff } from 'chessgroundx/types';
import { api, ApiError, capital, postRecord, type BoardPiece, type Hands, type PastPosition, type State, type VariantInfo, type VariantList } from './api';
import { boardSvg, playersEdges, riverOf } from './board/drawing';
import { drawHand, type HandPick } from './board/hands';
import { drawnUp, holeKeys, pointName, toKey, toPoint } from './board/keys';
import { colours, familyOf, kindOfRole, pieceCss, roleOf, type Family } from './board/pieces';
import { pickPromotion } from './board/promotion';
import { drawBanner } from './game/banner';
import { Clocks } from './game/clock';
import { gameFromAddress, setAddress, watch } from './game/link';
import { drawMoveList, inCoordinates, moveTexts, setCoordinates } from './game/movelist';
import { exportRecord, showRecordFormats } from './game/records';
import { drawSeat, timeControl } from './game/seat';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
let state: State;
let ground: Api | undefined;
let family: Family = 'chess';
let flipped = false;  // turned round from the first side's view
let editing = false;
let picked: Piece | undefined;  // the editor's palette piece
let editedHands: Hands | undefined;  // the hands of the position being set up, where the variant has hands
let held: HandPick | undefined;  // a hand piece about to be dropped
let reviewing: number | undefined;  // the ply shown, while reviewing the past
let wanted: number | undefined;  // the ply last stepped to, while its position is on its way
let busy = 0;  // requests in flight: other tabs' news waits for them
let passWarned = false;  // the player was told what the pass asked for may end in
let variants: VariantInfo[] = [];
const clocks = new Clocks([$('clock-top'), $('clock-bottom')], () => void poll());

function say(text: string) { $('message').textContent = text; }

// The first side sits at the bottom, file a on its left (board/keys.ts keys Janggi's ranks, which
// count from Han's edge, so that Cho does); Flip turns the board round.
const orientation = (): Color => (flipped ? 'black' : 'white');
const bottomSide = () => Math.max(0, state.sides.findIndex((side) => drawnUp(state.board, side) !== flipped));

const PhoneWidth = 600;  // style.css's @media for phones

function sizeBoard(s: State) {
  const { files, ranks } = s.board;
  // The players' rank numbers outside the board take a strip on its right (drawEdgeLabels), but on
  // a phone, where the board fills the width, they go inside its right edge (style.css).
  const screen = document.documentElement.clientWidth;
  const width = Math.min(screen - (playersEdges(s, false)?.right.length && screen > PhoneWidth ? 40 : 16), 720);
  const square = Math.max(16, Math.floor(Math.min(width / files, 600 / ranks, 68)));
  const wrap = $('board');
  wrap.style.setProperty('--files', String(files));
  wrap.style.setProperty('--ranks', String(ranks));
  document.documentElement.style.setProperty('--square', `${square}px`);
  document.documentElement.style.setProperty('--board-width', `${square * files}px`);
  document.documentElement.style.setProperty('--board-height', `${square * ranks}px`);
  const river = riverOf(s, family);
  $('river').hidden = river < 0;
  if (river >= 0) $('river').style.top = `${(ranks - river - 1.5) * square}px`;
}

// The board's drawing lives in a style rule, so chessgroundx redrawing its board keeps it.
function drawBoard() {
  $('board-style').textContent = `#board cg-board { background-image: ${boardSvg(state, family, orientation() === 'black')}; }`;
  for (const box of [$('hand-top'), $('hand-bottom')]) {
    box.classList.toggle('orientation-white', orientation() === 'white');
    box.classList.toggle('orientation-black', orientation() === 'black');
  }
  $('board').setAttribute('aria-label', `${state.name} board, ${state.sides[bottomSide()].name} at the bottom; moves may also be typed below`);
  drawEdgeLabels();
}

// The players' own numbers, where they have them, outside the board as their boards are printed:
// files along the top (shogi's 9 to 1) or each side's along its own edge (Xiangqi's 九 to 一 and
// １ to ９), ranks down the right (一 to 九), in the page's font, which the board's SVG image
// cannot use.
function drawEdgeLabels() {
  const edges = playersEdges(state, orientation() === 'black');
  const spans = (texts: string[] = []) => texts.map((text) => Object.assign(document.createElement('span'), { textContent: text }));
  for (const [id, edge, texts] of [['file-labels', 'top', edges?.top], ['side-labels', 'bottom', edges?.bottom], ['rank-labels', 'right', edges?.right]] as const) {
    $(id).replaceChildren(...spans(texts));
    $('board-box').classList.toggle(`labelled-${edge}`, !!texts?.length);
  }
}

function piecesOf(s: State, pieces: BoardPiece[]): PiecesDiff {
  const diff: PiecesDiff = new Map();
  for (let f = 0; f < s.board.files; f++) for (let r = 1; r <= s.board.ranks; r++) diff.set(toKey(s.board, pointName(f, r)), undefined);
  for (const p of pieces) diff.set(toKey(s.board, p.square), { role: roleOf(s, p.kind), color: colours[p.side] });
  return diff;
}

function dests(s: State): Map<Key, Key[]> {
  const map = new Map<Key, Key[]>();
  for (const [from, targets] of Object.entries(s.legal)) map.set(toKey(s.board, from), targets.map((t) => toKey(s.board, t)));
  return map;
}

const lastMoveKeys = (s: State, m: [string | null, string] | null): Key[] | undefined =>
  m ? (m.filter((p) => p !== null) as string[]).map((p) => toKey(s.board, p)) : undefined;

function newGround(s: State) {
  ground?.destroy();
  ground = Chessground($('board'), {
    dimensions: { width: s.board.files, height: s.board.ranks },
    orientation: orientation(),
    coordinates: false,
    // Any target may be tried: a move the rules refuse is sent anyway, so the server can say why.
    movable: { free: true, showDests: true, events: { after: onMove } },
    draggable: { enabled: true, showGhost: true },
    premovable: { enabled: false },
    // A piece the editor's player drags off the board leaves the FEN too.
    events: { select: onSelect, dropNewPiece: onDrop, change: () => editing && syncEditorFen() },
  });
  // chessgroundx starts from chess's set-up: a board of another size or game starts empty.
  ground.state.boardState.pieces.clear();
}

// The board and the panels, from the server's state.
function show(s: State, fresh = false) {
  const layoutChanged = !state || fresh || state.board.files !== s.board.files || state.board.ranks !== s.board.ranks || state.variant !== s.variant;
  state = s;
  if (layoutChanged) {
    // A seat's page has its own side at the bottom.
    const own = s.plays.length === 1 ? s.sides.find((side) => side.name === s.plays[0]) : undefined;
    if (own) flipped = !drawnUp(s.board, own);
    family = familyOf(s);
    $('board').dataset.family = family;
    $('board').dataset.ranksFrom = s.board.ranks_from;
    document.body.dataset.family = family;
    $('piece-style').textContent = pieceCss(s, family);
    sizeBoard(s);
    newGround(s);
    drawBoard();
    fillOpponents();
    showVariantChoice(s);
    ($('move-input') as HTMLInputElement).placeholder = s.move_example ? `e.g. ${s.move_example}` : '';
    $('move-help').textContent = 'in any notation the game reads: its players\' own, its records\', or coordinates';
  }
  reviewing = wanted = undefined;
  $('review').hidden = true;
  held = undefined;
  ground!.setPieces(piecesOf(s, s.pieces));
  const over = s.result.finished;
  const mine = !over && engineSide() !== s.turn && plays(s, s.turn);
  ground!.set({
    turnColor: colours[s.turn],
    lastMove: lastMoveKeys(s, s.last_move),
    check: s.check_square ? [toKey(s.board, s.check_square)] : false,
    movable: { color: editing ? 'both' : mine ? colours[s.turn] : undefined, dests: editing ? new Map() : dests(s) },
    draggable: { deleteOnDropOff: editing },
  });
  const turn = capital(s.sides[s.turn].name);
  const why = s.result.explanation ? ` ${capital(s.result.explanation)}.` : '';
  $('status').textContent = (s.result.finished ? `Game over: ${s.result.text}.` : `${turn} to move${s.check ? `: ${turn} is in check!` : '.'}`) + why;
  drawBanner($('banner'), s);
  drawSeat(s, engineSide(), (path) => act('POST', path));
  drawMoveList($('move-list'), s, reviewing, review);
  showNavigation();
  showRecordFormats($('record-format') as HTMLSelectElement, s);
  showPass(s);
  ($('fen') as HTMLInputElement).value = s.fen;
  showHands(s.hands);
  clocks.seat(bottomSide());
  clocks.sync(s.clock, s.clock?.running ? s.sides.findIndex((side) => side.name === s.clock!.running) : undefined);
  setAddress(s.id, flipped);
  void engineTurn();
}

// The Variant box shows the game's variant; an uploaded one (from the workshop), which the list of
// shipped variants lacks, is added to it, so that New game starts another game of it.
function showVariantChoice(s: State) {
  const select = $('variant') as HTMLSelectElement;
  if (![...select.options].some((o) => o.value === s.variant)) select.append(new Option(`${s.name} (uploaded)`, s.variant));
  select.value = s.variant;
}

// Pass is offered only where passing is a move of the game, with the reason when it is refused now.
function showPass(s: State) {
  const button = $('pass') as HTMLButtonElement;
  button.hidden = !s.passing;
  button.disabled = !s.can_pass;
  passWarned = false;
  const note = $('pass-note');
  note.textContent = s.passing && s.pass_refusal ? `No pass now: ${s.pass_refusal}.` : '';
  note.hidden = !note.textContent;
}

// A pass that may end the game is made only when asked twice, the first time saying what it ends in.
function pass() {
  if (state.pass_warning && !passWarned) {
    passWarned = true;
    const note = $('pass-note');
    note.textContent = `Careful: ${state.pass_warning}. Press Pass again to pass.`;
    note.hidden = false;
    return;
  }
  void act('POST', '/pass');
}

function showHands(hands: Hands | undefined) {
  if (editing) return showEditedHands();
  const pick = (p: HandPick, e: MouseEvent | TouchEvent) => {
    if (reviewing !== undefined || p.side !== state.turn || engineSide() === state.turn || !plays(state, p.side)) return;
    e.preventDefault();
    held = p;
    document.querySelectorAll('.hand button.held').forEach((b) => b.classList.toggle('picked', b === e.currentTarget));
    const piece = { role: roleOf(state, p.kind), color: colours[p.side] };
    ground!.dragNewPiece(piece, false, e as never);
  };
  drawHand($('hand-top'), state, hands, 1 - bottomSide(), held, pick);
  drawHand($('hand-bottom'), state, hands, bottomSide(), held, pick);
}

// The editor's hands: a press on a held piece takes one away, and each hand offers to take the
// piece picked in the palette.
function showEditedHands() {
  const change = (side: number, kind: string, by: number) => {
    const hand = (editedHands![state.sides[side].name] ??= {});
    hand[kind] = (hand[kind] ?? 0) + by;
    showEditedHands();
    syncEditorFen();
  };
  for (const [box, side] of [[$('hand-top'), 1 - bottomSide()], [$('hand-bottom'), bottomSide()]] as const) {
    drawHand(box, state, editedHands, side, undefined, (p, e) => { e.preventDefault(); change(p.side, p.kind, -1); });
    if (!editedHands) continue;
    const add = Object.assign(document.createElement('button'), { className: 'add-to-hand', textContent: '+' });
    add.setAttribute('aria-label', `put the picked piece in ${state.sides[side].name}'s hand`);
    add.onclick = () => {
      if (picked) change(side, kindOfRole(state, picked.role)!.name, 1);
      else say('Pick a piece below first, then put it in a hand.');
    };
    box.append(add);
  }
}

async function act(method: string, path: string, body?: unknown) {
  busy++;
  try {
    const next = await api(method, `/api/games/${state.id}${path}`, body);
    say('');
    busy--;
    show(next);
  } catch (e) {
    busy--;
    say((e as Error).message);
    show(state);  // puts back a piece the refused move had moved
  }
}

// The point's centre on the screen, within the board box, for the promotion picker.
function pointAt(key: Key) {
  const rect = $('board').getBoundingClientRect();
  const { files, ranks } = state.board;
  const file = key.charCodeAt(0) - 97, rank = key.charCodeAt(1) - 49;
  const black = orientation() === 'black';
  return {
    x: ((black ? files - 1 - file : file) + 0.5) * (rect.width / files),
    y: ((black ? rank : ranks - 1 - rank) + 0.5) * (rect.height / ranks),
  };
}

async function onMove(orig: Key, dest: Key) {
  if (editing) return syncEditorFen();
  const prefix = toPoint(state.board, orig) + toPoint(state.board, dest);
  // Several legal moves share from and to only when a promotion is chosen (or declined): ask which.
  const choices = state.legal_moves.filter((m) => m.startsWith(prefix) && !/[0-9]/.test(m.charAt(prefix.length)));
  let move: string | undefined = choices.length === 1 ? choices[0] : prefix;
  if (choices.length > 1) {
    const mover = state.pieces.find((p) => p.square === toPoint(state.board, orig))!;
    move = await pickPromotion(state, $('board-box'), prefix, choices, pointAt(dest), mover.side, mover.kind);
    if (move === undefined) return show(state);
  }
  await act('POST', '/moves', { move });
}

// A hand piece dropped on a point, dragged there or picked then clicked.
function dropHeld(point: string) {
  const kind = state.kinds.find((k) => k.name === held!.kind)!;
  held = undefined;
  void act('POST', '/moves', { move: `${kind.letter}@${point}` });
}

function onDrop(piece: Piece, key: Key) {
  if (editing) return;
  if (held && roleOf(state, held.kind) === piece.role) dropHeld(toPoint(state.board, key));
}

// In play, a picked hand piece is dropped on the point selected (the editor puts its pieces at the
// press, in wire()).
function onSelect(key: Key) {
  if (!editing && held && !state.pieces.some((p) => p.square === toPoint(state.board, key))) return dropHeld(toPoint(state.board, key));
}

// A past position (0: the start), shown until the player goes back to the game.
async function review(ply: number) {
  if (ply === state.moves.length) return show(state);
  wanted = ply;
  try {
    const past = await api<PastPosition>('GET', `/api/games/${state.id}/position/${ply}`);
    if (wanted !== ply) return;  // a later step overtook this one
    reviewing = ply;
    wanted = undefined;
    ground!.setPieces(piecesOf(state, past.pieces));
    ground!.set({ lastMove: lastMoveKeys(state, past.last_move), check: false, movable: { color: undefined, dests: new Map() }, turnColor: colours[past.turn] });
    showHands(past.hands);
    $('review').hidden = false;
    $('review-ply').textContent = ply === 0 ? 'Showing the start position.'
      : `Showing the position after move ${Math.ceil(ply / 2)} (${moveTexts(state)[ply - 1]}).`;
    drawMoveList($('move-list'), state, reviewing, review);
    showNavigation();
  } catch (e) {
    if (wanted === ply) wanted = undefined;
    say((e as Error).message);
  }
}

// The ply shown, or on its way: the one reviewed, or the game's last.
const shownPly = () => wanted ?? reviewing ?? state.moves.length;

// Steps to ply `to` of the game, kept between the start and now.
const stepTo = (to: number) => review(Math.max(0, Math.min(state.moves.length, to)));

function showNavigation() {
  const at = shownPly();
  for (const id of ['nav-first', 'nav-back']) ($(id) as HTMLButtonElement).disabled = at === 0;
  for (const id of ['nav-on', 'nav-last']) ($(id) as HTMLButtonElement).disabled = at === state.moves.length;
}

// A record file picked becomes a game of the variant chosen above.
async function importRecord(input: HTMLInputElement) {
  const file = input.files?.[0];
  input.value = '';
  if (!file) return;
  try {
    const s = await postRecord(($('variant') as HTMLSelectElement).value, file);
    say(`Started from ${file.name}: ${s.moves.length} moves.`);
    if (editing) toggleEditor();
    show(s, true);
  } catch (e) {
    say(`${file.name}: ${(e as Error).message}`);
  }
}

// Play against Palace: the engine plays the side chosen, at the level chosen, by itself.
const engineSide = (): number | undefined => {
  const value = ($('opponent') as HTMLSelectElement).value;
  return value === '' ? undefined : Number(value);
};

function fillOpponents() {
  const select = $('opponent') as HTMLSelectElement;
  const before = select.value;
  select.replaceChildren(new Option('a person', ''), ...state.sides.map((side, i) => new Option(`Palace plays ${side.name}`, String(i))));
  if ([...select.options].some((o) => o.value === before)) select.value = before;
}

async function engineTurn() {
  const side = engineSide();
  if (side === undefined || side !== state.turn || !plays(state, side) || state.result.finished || editing || busy) return;
  busy++;
  try {
    const next = await api('POST', `/api/games/${state.id}/engine`, { level: Number(($('level') as HTMLSelectElement).value) });
    busy--;
    show(next);
  } catch (e) {
    busy--;
    if (!(e instanceof ApiError && e.status === 409)) say((e as Error).message);
  }
}

// Undo takes back the engine's answer too, so the player is to move again.
async function undo() {
  const side = engineSide();
  const twice = side !== undefined && side !== state.turn && state.moves.length >= 2;
  if (side !== undefined && side === state.turn && state.moves.length >= 1) return act('POST', '/undo');
  if (twice) {
    busy++;
    try {
      await api('POST', `/api/games/${state.id}/undo`);
    } catch { /* the second undo says why */ }
    busy--;
  }
  await act('POST', '/undo');
}

// A hole is written `*` (rules/README.md).
function boardFen(): string {
  const { files, ranks } = state.board;
  const holes = holeKeys(state.board);
  const rows: string[] = [];
  for (let r = ranks; r >= 1; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < files; f++) {
      const key = toKey(state.board, pointName(f, r));
      const piece = ground!.state.boardState.pieces.get(key);
      if (!piece && !holes.has(key)) { empty++; continue; }
      if (empty) row += empty;
      empty = 0;
      if (!piece) { row += '*'; continue; }
      const kind = kindOfRole(state, piece.role)!;
      const text = kind.written ?? kind.letter;
      row += sideIsUpper(colours.indexOf(piece.color)) ? text.toUpperCase() : text.toLowerCase();
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

// The hands' FEN, as the board's: each kind's letter, once a piece, in its side's case.
function handsFen(hands: Hands): string {
  return state.sides.map((side, i) => Object.entries(hands[side.name] ?? {}).map(([name, n]) => {
    const kind = state.kinds.find((k) => k.name === name)!;
    const text = kind.written ?? kind.letter;
    return (sideIsUpper(i) ? text.toUpperCase() : text.toLowerCase()).repeat(n);
  }).join('')).join('');
}

// The FEN of the edited position: its board and hands, the chosen side to move, the rest of the
// fields kept (the server drops the rights and ghost that the set-up no longer allows).
function syncEditorFen() {
  const fields = state.fen.split(' ');
  fields[0] = boardFen() + (editedHands ? `[${handsFen(editedHands)}]` : '');
  if (fields.length > 1) fields[1] = ($('editor-turn') as HTMLSelectElement).value;
  ($('fen') as HTMLInputElement).value = fields.join(' ');
}

function toggleEditor() {
  editing = !editing;
  picked = undefined;
  editedHands = editing && state.hands ? structuredClone(state.hands) : undefined;
  $('editor').hidden = !editing;
  $('edit').textContent = editing ? 'Stop editing' : 'Edit position';
  if (editing) {
    const turnField = state.fen.split(' ')[1] ?? 'w';
    $('editor-turn').replaceChildren(...state.sides.map((side, i) => new Option(capital(side.name), i === 0 ? 'w' : 'b', false, (i === 0 ? 'w' : 'b') === turnField)));
    const palette = $('palette');
    palette.replaceChildren();
    state.sides.forEach((side, i) => {
      for (const kind of state.kinds) {
        const button = document.createElement('button');
        button.title = `${side.name} ${kind.name}`;
        button.setAttribute('aria-label', `put a ${side.name} ${kind.name}`);
        button.append(Object.assign(document.createElement('piece'), { className: `${roleOf(state, kind.name)} ${colours[i]}` }));
        button.onclick = () => {
          picked = { role: roleOf(state, kind.name), color: colours[i] };
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
    const clock = timeControl(($('clock') as HTMLSelectElement).value);
    const s = await api('POST', '/api/games', { variant: ($('variant') as HTMLSelectElement).value, formations, ...(clock ? { clock } : {}) });
    say('');
    if (editing) toggleEditor();
    show(s, true);
  } catch (e) {
    say((e as Error).message);
  }
}

// Whether this page's address moves `side`.
const plays = (s: State, side: number) => s.plays.includes(s.sides[side].name);

// What the page shows changes with: the position, the result (a flag, a resignation), an offer.
const news = (s: State) => [s.fen, s.moves.length, s.result.text, s.draw_offer ?? '', s.clock?.running ?? ''].join('|');

// News from another tab or seat on the same game, taken only if this page changed nothing
// meanwhile (an answer read before this page's own move would take it back).
async function poll() {
  if (!state || busy || editing) return;
  const before = state;
  const s = await api('GET', `/api/games/${state.id}`);
  if (state === before && !busy && reviewing === undefined && news(s) !== news(state)) show(s);
}

function wire() {
  for (const id of ['piece-style', 'board-style']) document.head.append(Object.assign(document.createElement('style'), { id }));
  $('level').append(...Array.from({ length: 10 }, (_, i) => new Option(String(i + 1), String(i + 1), false, i === 2)));
  ($('variant') as HTMLSelectElement).onchange = showFormationChoices;
  $('new-game').onclick = newGame;
  $('undo').onclick = undo;
  $('pass').onclick = pass;
  $('engine').onclick = () => act('POST', '/engine', { level: Number(($('level') as HTMLSelectElement).value) });
  ($('opponent') as HTMLSelectElement).onchange = () => show(state);
  $('flip').onclick = () => {
    flipped = !flipped;
    $('flip').setAttribute('aria-pressed', String(flipped));
    ground!.set({ orientation: orientation() });
    drawBoard();
    show(state);
  };
  $('review-end').onclick = () => show(state);
  $('nav-first').onclick = () => stepTo(0);
  $('nav-back').onclick = () => stepTo(shownPly() - 1);
  $('nav-on').onclick = () => stepTo(shownPly() + 1);
  $('nav-last').onclick = () => stepTo(state.moves.length);
  $('record-export').onclick = () => exportRecord(state, ($('record-format') as HTMLSelectElement).value).catch((e) => say((e as Error).message));
  ($('record-import') as HTMLInputElement).onchange = (e) => importRecord(e.target as HTMLInputElement);
  const coordinates = $('coordinates') as HTMLInputElement;
  coordinates.checked = inCoordinates();
  coordinates.onchange = () => {
    setCoordinates(coordinates.checked);
    sizeBoard(state);
    drawBoard();
    ground?.redrawAll();
    show(state);
  };
  $('move-form').onsubmit = async (e) => {
    e.preventDefault();
    const input = $('move-input') as HTMLInputElement;
    const move = input.value.trim();
    if (!move) return;
    await act('POST', '/moves', { move });
    if (!$('message').textContent) input.value = '';
  };
  $('edit').onclick = toggleEditor;
  $('editor-turn').onchange = syncEditorFen;
  $('editor-clear').onclick = () => {
    const empty: PiecesDiff = new Map();
    for (const key of ground!.state.boardState.pieces.keys()) empty.set(key, undefined);
    ground!.setPieces(empty);
    syncEditorFen();
  };
  // A set-up the server refuses stays on the board, with the reason, to be mended.
  $('editor-apply').onclick = async () => {
    busy++;
    try {
      const next = await api('PUT', `/api/games/${state.id}/fen`, { fen: ($('fen') as HTMLInputElement).value, drop_unmet_rights: true });
      busy--;
      say('');
      state = next;
      toggleEditor();
    } catch (e) {
      busy--;
      say((e as Error).message);
    }
  };
  // A hole is no point, though chessgroundx knows only rectangles: a press there selects nothing
  // (and puts no piece of the editor's: this runs before that), and a piece dragged onto one goes
  // back. Both before chessgroundx hears of them.
  const holeAt = (x: number, y: number) => {
    if (!ground) return false;
    ground.state.dom.bounds.clear();
    const key = ground.getKeyAtDomPos([x, y]);
    return !!key && holeKeys(state.board).has(key);
  };
  for (const press of ['mousedown', 'touchstart'])
    $('board').addEventListener(press, (e) => {
      const at = 'touches' in e ? (e as TouchEvent).touches[0] : (e as MouseEvent);
      if (!state || !holeAt(at.clientX, at.clientY)) return;
      e.stopImmediatePropagation();
      ground!.selectSquare(null);
      if (held) {
        held = undefined;
        showHands(state.hands);
      }
    }, { capture: true, passive: true });
  for (const release of ['mouseup', 'touchend'])
    document.addEventListener(release, (e) => {
      const dragged = ground?.state.draggable.current;
      if (!dragged) return;
      const [x, y] = 'changedTouches' in e ? dragged.pos : [(e as MouseEvent).clientX, (e as MouseEvent).clientY];
      if (holeAt(x, y)) ground!.cancelMove();
    }, { capture: true });
  // The editor puts the picked piece on the point pressed at the press itself: chessgroundx tells of
  // a press only a task later (onSelect), which may come after the player has picked the next piece.
  // It also keeps the board's place on the page from before the last scroll or window resize, which
  // the editor opening beside the board may have moved.
  for (const press of ['mousedown', 'touchstart'])
    $('board').addEventListener(press, (e) => {
      if (!ground || !editing || !picked) return;
      ground.state.dom.bounds.clear();
      ground.unselect();  // the point the last put selected is no piece to move to this one
      const at = 'touches' in e ? (e as TouchEvent).touches[0] : (e as MouseEvent);
      const key = ground.getKeyAtDomPos([at.clientX, at.clientY]);
      const there = key && ground.state.boardState.pieces.get(key);
      // The picked piece itself, already there, is left for chessgroundx to drag, off the board too.
      if (!key || (there && there.role === picked.role && there.color === picked.color)) return;
      ground.setPieces(new Map([[key, { ...picked }]]));
      syncEditorFen();
    }, { capture: true, passive: true });
  window.addEventListener('resize', () => {
    if (!state) return;
    sizeBoard(state);
    ground?.redrawAll();
  });
  // The arrow keys, Home and End step through the moves, unless a field or list takes them.
  const steps: Record<string, () => number> = {
    ArrowLeft: () => shownPly() - 1, ArrowRight: () => shownPly() + 1, Home: () => 0, End: () => state.moves.length,
  };
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && held) { held = undefined; showHands(state.hands); }
    const target = e.target as HTMLElement;
    if (!state || editing || !steps[e.key] || e.altKey || e.ctrlKey || e.metaKey || target.closest('input, select, textarea')) return;
    e.preventDefault();
    void stepTo(steps[e.key]());
  });
}

async function start() {
  wire();
  const list: VariantList = await (await fetch('/api/variants')).json();
  variants = list.variants;
  const select = $('variant') as HTMLSelectElement;
  // Each variant by its file name and what it is.
  select.append(...variants.map((v) => new Option(v.description ? `${v.name} — ${v.description}` : v.name, v.name, false, v.name === list.default)));
  const address = gameFromAddress();
  flipped = address.flip;
  $('flip').setAttribute('aria-pressed', String(flipped));
  watch(poll);
  if (address.id) {
    try {
      const s = await api('GET', `/api/games/${encodeURIComponent(address.id)}`);
      state = s;
      fillOpponents();
      const palace = s.sides.findIndex((side) => side.name === address.palace);
      if (palace >= 0) ($('opponent') as HTMLSelectElement).value = String(palace);
      show(s, true);
      showFormationChoices();
    } catch (e) {
      // An unknown game is said so: no other game is started in its place.
      $('banner').hidden = false;
      $('banner').className = 'missing';
      $('banner').textContent = `Game not found: ${(e as Error).message}. Pick a variant and start a new game.`;
      showFormationChoices();
    }
    return;
  }
  showFormationChoices();
  await newGame();
}

void start();
