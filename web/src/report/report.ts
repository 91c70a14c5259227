// The balance report's plots (palace balance --report DIR): the data come from index.html, written
// by the program beside this script, so the page opens from the folder with no server.
import Chart from 'chart.js/auto';

interface Report {
  title: string;
  sides: [string, string];
  summary: string;
  running: { games: number; score: number; low: number; high: number }[];
  lengths: number[];
  ends: { end: string; wins: [number, number]; draws: number }[];
  formations: { rows: string[]; columns: string[]; scores: (number | null)[][] } | null;
  values: { kind: string; file: number; value?: number; low?: number; high?: number; elo?: number; margin?: number; games?: number }[];
}

const report = (window as unknown as { BALANCE: Report }).BALANCE;
const [first, second] = report.sides;

function section(title: string): HTMLElement {
  const box = document.createElement('section');
  const heading = document.createElement('h2');
  heading.textContent = title;
  box.append(heading);
  document.body.append(box);
  return box;
}

// Chart.js sizes a responsive chart by its container, which must have a size of its own.
function canvas(box: HTMLElement): HTMLCanvasElement {
  const holder = document.createElement('div');
  holder.style.position = 'relative';
  holder.style.height = '22em';
  const c = document.createElement('canvas');
  holder.append(c);
  box.append(holder);
  return c;
}

document.title = report.title;
const h1 = document.createElement('h1');
h1.textContent = report.title;
const pre = document.createElement('pre');
pre.textContent = report.summary;
document.body.append(h1, pre);

new Chart(canvas(section(`${first}'s score as the games came in, with its 95% interval`)), {
  type: 'line',
  data: {
    labels: report.running.map((r) => r.games),
    datasets: [
      { label: 'upper', data: report.running.map((r) => r.high), pointRadius: 0, borderWidth: 0, fill: '+1', backgroundColor: 'rgba(54,162,235,0.2)' },
      { label: 'lower', data: report.running.map((r) => r.low), pointRadius: 0, borderWidth: 0 },
      { label: `${first}'s score %`, data: report.running.map((r) => r.score), pointRadius: 0, borderColor: 'rgb(54,162,235)' },
      { label: 'even', data: report.running.map(() => 50), pointRadius: 0, borderDash: [4, 4], borderColor: 'grey' },
    ],
  },
  options: {
    animation: false,
    maintainAspectRatio: false,
    scales: { x: { title: { display: true, text: 'games' } }, y: { min: 0, max: 100, title: { display: true, text: '%' } } },
    plugins: { legend: { labels: { filter: (item) => item.text !== 'upper' && item.text !== 'lower' } } },
  },
});

// About twenty bars over the range of lengths, each a whole number of plies wide.
const longest = Math.max(...report.lengths, 1);
const width = Math.max(1, Math.ceil((longest + 1) / 20));
const bins = Array.from({ length: Math.ceil((longest + 1) / width) }, () => 0);
for (const n of report.lengths) bins[Math.floor(n / width)]++;
new Chart(canvas(section('Length of the games (plies from the set-up)')), {
  type: 'bar',
  data: {
    labels: bins.map((_, i) => (width === 1 ? `${i}` : `${i * width}–${i * width + width - 1}`)),
    datasets: [{ label: 'games', data: bins, backgroundColor: 'rgb(75,192,192)' }],
  },
  options: { animation: false, maintainAspectRatio: false, scales: { x: { title: { display: true, text: 'plies' } } } },
});

new Chart(canvas(section('How the games ended')), {
  type: 'bar',
  data: {
    labels: report.ends.map((e) => e.end),
    datasets: [
      { label: `${first} won`, data: report.ends.map((e) => e.wins[0]), backgroundColor: 'rgb(54,162,235)' },
      { label: `${second} won`, data: report.ends.map((e) => e.wins[1]), backgroundColor: 'rgb(255,99,132)' },
      { label: 'drawn', data: report.ends.map((e) => e.draws), backgroundColor: 'rgb(201,203,207)' },
    ],
  },
  options: { animation: false, maintainAspectRatio: false, indexAxis: 'y', scales: { x: { stacked: true }, y: { stacked: true } } },
});

if (report.formations) {
  const f = report.formations;
  const box = section(`${first}'s score by formation (rows: ${first}'s, columns: ${second}'s)`);
  const table = document.createElement('table');
  const head = table.insertRow();
  head.insertCell();
  for (const name of f.columns) head.insertCell().textContent = name;
  f.rows.forEach((name, r) => {
    const row = table.insertRow();
    row.insertCell().textContent = name;
    for (const score of f.scores[r]) {
      const cell = row.insertCell();
      cell.textContent = score === null ? '–' : `${score.toFixed(1)}%`;
      // Blue where the first side did well, red where the second did, white at even.
      if (score !== null) {
        const t = (score - 50) / 50;
        cell.style.background = t >= 0 ? `rgba(54,162,235,${t})` : `rgba(255,99,132,${-t})`;
      }
    }
  });
  box.append(table);
}

// A bar chart's points, where a floating bar (an interval) shares the chart with plain bars: named,
// as Chart.js would otherwise take the type of the first dataset's points for all of them.
type Bars = (number | [number, number] | null)[];

if (report.values.length) {
  const v = report.values;
  new Chart<'bar', Bars>(canvas(section("Each kind's worth: the file's value, and the value fitted to the games with its 95% interval")), {
    type: 'bar',
    data: {
      labels: v.map((r) => r.kind),
      datasets: [
        { label: "the file's value", data: v.map((r) => r.file), backgroundColor: 'rgb(201,203,207)' },
        { label: 'fitted', data: v.map((r) => r.value ?? null), backgroundColor: 'rgb(54,162,235)' },
        // A floating bar from the interval's low end to its high end.
        { label: '95% interval', data: v.map((r) => (r.low === undefined ? null : [r.low, r.high ?? r.low])), backgroundColor: 'rgba(54,162,235,0.3)' },
      ],
    },
    options: { animation: false, maintainAspectRatio: false },
  });
  if (v.some((r) => r.elo !== undefined)) {
    new Chart<'bar', Bars>(canvas(section('The score of the side a piece short, in Elo, with its 95% interval')), {
      type: 'bar',
      data: {
        labels: v.map((r) => r.kind),
        datasets: [
          { label: 'Elo', data: v.map((r) => r.elo ?? null), backgroundColor: 'rgb(255,99,132)' },
          { label: '95% interval', data: v.map((r) => (r.elo === undefined ? null : [r.elo - (r.margin ?? 0), r.elo + (r.margin ?? 0)])), backgroundColor: 'rgba(255,99,132,0.3)' },
        ],
      },
      options: { animation: false, maintainAspectRatio: false },
    });
  }
}
