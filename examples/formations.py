"""Janggi formations, scored by self-play through the Python module (a notebook-style script).

Han's four formations (the elephants inside, outside, left, right) each play 25 games against Cho's
fixed inner-elephant formation: 100 games, 2 at a time (the search releases the GIL). A low depth
keeps it to a few minutes on 2 cores, so the figures show how the module is used more than which
formation is best.

    PYTHONPATH=build python3 examples/formations.py [--games-per-formation 25] [--depth 4] [--out formations.png]
"""
# %% Setup
import argparse
import os
import random
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import matplotlib

matplotlib.use("Agg")  # no display needed: the figure goes to a PNG
import matplotlib.pyplot as plt  # noqa: E402

import palace  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
JANGGI = os.path.join(HERE, "..", "variants", "janggi.yaml")
FORMATIONS = ["inner-elephant", "outer-elephant", "left-elephant", "right-elephant"]

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--games-per-formation", type=int, default=25)
parser.add_argument("--depth", type=int, default=4)
parser.add_argument("--max-plies", type=int, default=200)
parser.add_argument("--random-plies", type=int, default=4, help="random opening plies, so that the games differ")
parser.add_argument("--threads", type=int, default=2)
parser.add_argument("--out", default="formations.png")
args = parser.parse_args()

# %% The variants: janggi.yaml with Han's formation changed, one small YAML file each
folder = tempfile.mkdtemp(prefix="formations-")
variants = {}
for name in FORMATIONS:
    path = os.path.join(folder, name + ".yaml")
    with open(path, "w") as f:
        f.write(f"import: [{os.path.abspath(JANGGI)}]\n"
                f"setup: {{han: {{formation: {{name: {name}}}}}}}\n")
    variants[name] = palace.Variant.load(path)
    print(f"{name:15} {variants[name].start_fen}")


# %% One game: random opening plies, then the engine for both sides
def play(formation, seed):
    rng = random.Random(seed)
    game = palace.Game(variants[formation])
    while game.outcome() is None and len(game.moves) < args.max_plies:
        if len(game.moves) < args.random_plies:
            game.push(rng.choice(game.legal_moves()))
        else:
            game.push(game.search(depth=args.depth, hash_mb=1).move)
    outcome = game.outcome()
    if outcome is not None:
        han = {None: 0.5, "han": 1.0}.get(outcome.winner, 0.0)
        return formation, han, outcome.termination, len(game.moves)
    # Unfinished at the ply limit: the engine's score decides a clear advantage, else a draw.
    score = game.search(depth=args.depth, hash_mb=1).score
    if game.turn != "han":
        score = -score
    han = 1.0 if score > 300 else 0.0 if score < -300 else 0.5
    return formation, han, "adjudicated", len(game.moves)


# %% 100 games, two at a time
jobs = [(f, 1000 * i + g) for i, f in enumerate(FORMATIONS) for g in range(args.games_per_formation)]
start = time.time()
with ThreadPoolExecutor(args.threads) as pool:
    results = list(pool.map(lambda job: play(*job), jobs))
elapsed = time.time() - start

# %% The score by formation
print(f"\n{len(results)} games in {elapsed:.0f} s, depth {args.depth}")
print(f"{'Han formation':15} {'games':>5} {'Han score':>9} {'±95%':>6} {'mean plies':>10}  endings")
scores, errors = [], []
for name in FORMATIONS:
    mine = [r for r in results if r[0] == name]
    points = [r[1] for r in mine]
    mean = statistics.mean(points)
    error = 1.96 * statistics.pstdev(points) / len(points) ** 0.5
    endings = {}
    for r in mine:
        endings[r[2]] = endings.get(r[2], 0) + 1
    scores.append(mean)
    errors.append(error)
    print(f"{name:15} {len(mine):5} {mean:9.2f} {error:6.2f} {statistics.mean(r[3] for r in mine):10.0f}  {endings}")

figure, axes = plt.subplots(figsize=(6, 4))
axes.bar(FORMATIONS, scores, yerr=errors, capsize=6, color="#b03030")
axes.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
axes.set_ylim(0, 1)
axes.set_ylabel("Han's score against Cho's inner-elephant")
axes.set_title(f"Janggi formations, {len(results)} self-play games at depth {args.depth}")
figure.tight_layout()
figure.savefig(args.out, dpi=100)
print("figure:", os.path.abspath(args.out))
