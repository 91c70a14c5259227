// The game's record as a file: written in a format its players keep (PGN, KIF, CSA, .gib...) and
// downloaded, or read from a file the player picks to start a game from it.
import { api, type RecordFile, type State } from '../api';

// The formats offered for `s`, the one chosen kept where the game still has it.
export function showRecordFormats(select: HTMLSelectElement, s: State) {
  const chosen = select.value;
  select.replaceChildren(...s.record_formats.map((f) => new Option(f.toUpperCase(), f, false, f === chosen)));
}

// Downloads the game written in `format`.
export async function exportRecord(s: State, format: string) {
  const record = await api<RecordFile>('GET', `/api/games/${s.id}/record/${format}`);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([record.text], { type: 'text/plain;charset=utf-8' }));
  link.download = record.file;
  link.click();
  // Later, not at once: the download may not have read it yet.
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}
