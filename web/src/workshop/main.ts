// The variant workshop (web/README.md, "The variant workshop"): a variant file and its Lua scripts
// edited side by side; every edit is loaded by the server's own loader, its error marked at its
// line or its start position drawn; the draft can be tried, played, tested and saved.
import { autocompletion } from '@codemirror/autocomplete';
import { StreamLanguage } from '@codemirror/language';
import { lua } from '@codemirror/legacy-modes/mode/lua';
import { yaml } from '@codemirror/lang-yaml';
import { type Diagnostic, linter, lintGutter } from '@codemirror/lint';
import { EditorState, type Extension, type Text } from '@codemirror/state';
import { EditorView, basicSetup } from 'codemirror';
import { api, ApiError, type Draft, type State, type TestResult } from './api';
import { type Schema, schemaCompletion } from './complete';
import { Preview } from './preview';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const Variant = 'variant.yaml';
const Test = 'test.yaml';

const starter = (base: string) =>
  `# A variant of ${base}: change, add or remove any key (rules/README.md is the reference).\n` +
  `import: [${base}.yaml]\nname: my-${base}\n`;
const starterTest =
  '# Rule tests on the variant being edited (tests/rules/README.md): each case expects\n' +
  '# something of one position, the set-up unless it says another.\n' +
  'variant: variant.yaml\ncases:\n  - name: the game has not ended at the set-up\n    state: unfinished\n';

let schema: Schema | undefined;
const files = new Map<string, EditorState>();  // by tab name; the shown one is the view's
let current = Variant;
let view: EditorView;
let problem: ApiError | undefined;  // the last check's refusal
let start: State | undefined;          // or the start position it drew
let checkedKey = '';
let checking: Promise<void> | undefined;
const uploads = new Map<string, string>();  // a draft's text -> the upload made of it
let trial: { key: string; game: string } | undefined;  // the game moves are tried on

function draft(): Draft {
  files.set(current, view.state);
  const scripts: Record<string, string> = {};
  for (const [name, state] of files) if (name !== Variant && name !== Test) scripts[name] = state.doc.toString();
  return { yaml: files.get(Variant)!.doc.toString(), scripts };
}

// Loads the draft on the server unless this very text was loaded last.
function check(): Promise<void> {
  const body = draft();
  const key = JSON.stringify(body);
  if (key === checkedKey && checking) return checking;
  checkedKey = key;
  checking = (async () => {
    try {
      const state = await api<State>('POST', '/api/variants/check', body);
      if (key !== checkedKey) return;
      problem = undefined;
      start = state;
      trial = undefined;
      showStart(state);
    } catch (e) {
      if (key !== checkedKey) return;
      problem = e instanceof ApiError ? e : new ApiError((e as Error).message, 0);
      start = undefined;
    }
    showProblem();
  })();
  return checking;
}

// Where an error is marked: the file it names if that is open, else the variant file.
function fileOf(place: { file?: string }): string {
  return place.file && files.has(place.file) ? place.file : Variant;
}

function diagnosticAt(doc: Text, line: number | undefined, column: number | undefined, message: string): Diagnostic {
  const at = doc.line(Math.min(Math.max(line ?? 1, 1), doc.lines));
  const from = at.from + Math.min(Math.max((column ?? 1) - 1, 0), at.length);
  const word = column ? /^\S*/.exec(doc.sliceString(from, at.to))![0].length : at.to - from;
  return { from, to: Math.max(from + word, Math.min(from + 1, at.to)), severity: 'error', message };
}

async function lint(v: EditorView): Promise<Diagnostic[]> {
  if (current === Test) return [];
  await check();
  if (!problem || fileOf(problem.place) !== current) return [];
  return [diagnosticAt(v.state.doc, problem.place.line, problem.place.column, problem.message)];
}

function showProblem() {
  $('problem').textContent = problem ? problem.message : '';
  // The board keeps the last draft that loaded, faded, until the error is mended.
  $('seeing').classList.toggle('stale', !!problem && !!$('title').textContent);
  if (problem && $('title').textContent) $('preview-status').textContent = 'The last version that loaded, until the error is mended.';
  for (const tab of document.querySelectorAll<HTMLElement>('#tabs button'))
    tab.classList.toggle('has-error', !!problem && fileOf(problem.place) === tab.dataset.file);
  for (const id of ['save', 'play', 'run-test']) $<HTMLButtonElement>(id).disabled = !!problem;
}

function extensions(name: string): Extension[] {
  const language = name.endsWith('.lua') ? StreamLanguage.define(lua) : yaml();
  return [
    basicSetup,
    language,
    lintGutter(),
    linter(lint, { delay: 400 }),
    EditorView.lineWrapping,
    ...(name === Variant ? [autocompletion({ override: [schemaCompletion(() => schema)] })] : []),
    EditorView.contentAttributes.of({ 'aria-label': `${name}, edited` }),
  ];
}

function showTabs() {
  $('tabs').replaceChildren(
    ...[...files.keys()].map((name) => {
      const tab = Object.assign(document.createElement('button'), { textContent: name });
      tab.dataset.file = name;
      tab.setAttribute('role', 'tab');
      tab.setAttribute('aria-selected', String(name === current));
      tab.onclick = () => open(name);
      return tab;
    }),
  );
  showProblem();
}

function open(name: string, line?: number) {
  files.set(current, view.state);
  current = name;
  view.setState(files.get(name)!);
  showTabs();
  if (line) {
    const at = view.state.doc.line(Math.min(line, view.state.doc.lines));
    view.dispatch({ selection: { anchor: at.from }, scrollIntoView: true });
  }
  view.focus();
}

function setFiles(yamlText: string, scripts: Record<string, string>, testText = starterTest) {
  files.clear();
  files.set(Variant, EditorState.create({ doc: yamlText, extensions: extensions(Variant) }));
  for (const [name, text] of Object.entries(scripts)) files.set(name, EditorState.create({ doc: text, extensions: extensions(name) }));
  files.set(Test, EditorState.create({ doc: testText, extensions: extensions(Test) }));
  current = Variant;
  view.setState(files.get(Variant)!);
  showTabs();
}

function addScript() {
  const name = $<HTMLInputElement>('script-name').value.trim();
  if (!/^[\w-]+\.lua$/.test(name) || files.has(name)) {
    $('problem').textContent = `a script needs a new plain name like rules.lua, not "${name}"`;
    return;
  }
  files.set(current, view.state);
  const rest = [...files].filter(([n]) => n !== Test);
  const test = files.get(Test)!;
  files.clear();
  for (const [n, s] of rest) files.set(n, s);
  files.set(name, EditorState.create({ doc: '-- Hooks named in variant.yaml under scripts: (scripts/README.md)\n', extensions: extensions(name) }));
  files.set(Test, test);
  $<HTMLInputElement>('script-name').value = '';
  open(name);
}

let preview: Preview;

function showStart(s: State, note = '') {
  preview.show(s);
  $('title').textContent = s.name;
  $('fen').textContent = s.fen;
  const turn = s.sides[s.turn]?.name ?? '';
  $('preview-status').textContent = note || (s.moves.length === 0 ? `Start position: ${turn} to move. Drag a piece to try a move.` : '');
  const opponent = $<HTMLSelectElement>('opponent');
  const chosen = opponent.value;
  opponent.replaceChildren(new Option('a person', 'person'), ...s.sides.map((side) => new Option(`Palace (as ${side.name})`, side.name)));
  opponent.value = [...opponent.options].some((o) => o.value === chosen) ? chosen : 'person';
}

// What an upload keeps: the draft and its rule test, which a saved link brings back.
const withTest = (): Draft => ({ ...draft(), test: files.get(Test)!.doc.toString() });

// The draft kept as an upload: once for a given text.
async function uploaded(): Promise<string> {
  const body = withTest();
  const key = JSON.stringify(body);
  let id = uploads.get(key);
  if (!id) {
    id = (await api<{ variant: string }>('POST', '/api/variants', body)).variant;
    uploads.set(key, id);
  }
  return id;
}

async function tryMove(move: string) {
  try {
    const key = checkedKey;
    if (!trial || trial.key !== key) trial = { key, game: (await api<State>('POST', '/api/games', { variant: await uploaded() })).id };
    const s = await api<State>('POST', `/api/games/${trial.game}/moves`, { move });
    showStart(s, `Tried ${s.moves.join(' ')}${s.result.finished ? `: ${s.result.text}` : ''}. An edit starts over.`);
  } catch (e) {
    $('preview-status').textContent = (e as Error).message;
    if (start) preview.show(start);
  }
}

async function save() {
  try {
    const id = await uploaded();
    history.replaceState(null, '', `?variant=${id}`);
    const link = Object.assign(document.createElement('a'), { href: location.href, textContent: location.href });
    link.id = 'share-link';
    $('share').replaceChildren('Saved: ', link);
  } catch (e) {
    $('share').textContent = (e as Error).message;
  }
}

// The game page opens a game by its id: `?game=ID` (the hash, for the page as it was before).
export function gameUrl(game: string, palace: string): string {
  return `/?game=${encodeURIComponent(game)}${palace === 'person' ? '' : `&palace=${encodeURIComponent(palace)}`}#${game}`;
}

async function play() {
  try {
    const game = await api<State>('POST', '/api/games', { variant: await uploaded() });
    location.href = gameUrl(game.id, $<HTMLSelectElement>('opponent').value);
  } catch (e) {
    $('problem').textContent = (e as Error).message;
  }
}

async function runTest() {
  const body = withTest();
  $('results').hidden = false;
  $('results-summary').textContent = 'Testing…';
  $('cases').replaceChildren();
  try {
    const result = await api<TestResult>('POST', '/api/variants/test', body);
    $('results-summary').textContent = `${result.passed} passed, ${result.failed} failed`;
    $('cases').replaceChildren(
      ...result.cases.map((c) => {
        const li = document.createElement('li');
        li.className = c.passed ? 'passed' : 'failed';
        const name = Object.assign(document.createElement('a'), { href: '#', textContent: `${c.passed ? '✓' : '✗'} ${c.name}` });
        name.onclick = (event) => { event.preventDefault(); open(Test, c.line); };
        li.append(name);
        for (const f of c.failures) li.append(Object.assign(document.createElement('div'), { className: 'failure', textContent: `line ${f.line}: ${f.message}` }));
        return li;
      }),
    );
  } catch (e) {
    const place = e instanceof ApiError ? e.place : {};
    $('results-summary').textContent = `The test did not run: ${(e as Error).message}`;
    if (place.file === Test && place.line) open(Test, place.line);
  }
}

async function main() {
  preview = new Preview($('preview'), tryMove);
  view = new EditorView({ parent: $('editor') });
  const shipped = await api<{ variants: { name: string }[]; default: string }>('GET', '/api/variants');
  const template = $<HTMLSelectElement>('template');
  template.append(new Option('—', ''), ...shipped.variants.map((v) => new Option(v.name, v.name)));
  template.onchange = () => template.value && setFiles(starter(template.value), {});
  $('add-script').onclick = addScript;
  $('save').onclick = save;
  $('play').onclick = play;
  $('run-test').onclick = runTest;
  api<Schema>('GET', '/api/schema').then((s) => (schema = s), () => undefined);

  const saved = new URLSearchParams(location.search).get('variant');
  if (saved) {
    try {
      const source = await api<Draft>('GET', `/api/variants/${encodeURIComponent(saved)}/source`);
      setFiles(source.yaml, source.scripts, source.test || undefined);
      uploads.set(JSON.stringify(withTest()), saved);
    } catch (e) {
      setFiles(starter('chess'), {});
      $('share').textContent = (e as Error).message;
    }
  } else {
    setFiles(starter('chess'), {});
  }
  await check();
}

void main();
