#!/usr/bin/env python3
"""bench/fit_eval.py's engine files load: for each game whose ends the fit weighs, the terms it
would fit, moved one step from their start, are written as the fit writes them and imported by the
variant, which `palace validate` must accept, and the file reads back to the same figures.
Usage: fit_eval_output_test.py PALACE. Exits 77 (skipped) without PyYAML."""
import os, subprocess, sys, tempfile

try:
    import yaml  # noqa: F401
except ImportError:
    sys.exit(77)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench"))
import fit_eval  # noqa: E402

# Each game and the families its rules must give the fit: values and tables only where the engine
# has no table for the game (shatranj; shogi has its fitted ones).
EXPECTED = {
    'king-of-the-hill': {'goal'}, 'three-check': {'checks'}, 'crazyhouse': {'hand'},
    'shogi': {'hand', 'mobility'}, 'shatranj': {'few', 'value', 'square', 'mobility'}, 'horde': {'few'},
}


def families(terms):
    return {name.split('.')[0].rstrip('0123456789') for name in terms.start}


def main(palace):
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for game, expected in EXPECTED.items():
            variant = os.path.join(ROOT, 'variants', game + '.yaml')
            terms = fit_eval.Terms(fit_eval.merged_rules(variant), None)
            found = families(terms) - {'advance', 'centre'} | ({'square'} if terms.square else set())
            if not expected <= found:
                failures.append('%s: fits %s, expected at least %s' % (game, sorted(found), sorted(expected)))
            x = {k: v + terms.step[k] for k, v in terms.start.items()}
            section = terms.eval_section(x)
            engine = os.path.join(tmp, game + '-eval.yaml')
            with open(engine, 'w') as f:
                f.write(fit_eval.engine_file(section))
            if yaml.safe_load(open(engine))['engine']['eval'] != section:
                failures.append('%s: the engine file does not read back as written' % game)
            overlay = os.path.join(tmp, game + '.yaml')
            with open(overlay, 'w') as f:
                f.write('import: [%s, %s]\n' % (variant, engine))
            done = subprocess.run([palace, 'validate', overlay], capture_output=True, text=True)
            if done.returncode:
                failures.append('%s: %s' % (game, (done.stdout + done.stderr).strip()))
    for failure in failures:
        print(failure)
    print('%d of %d engine files load' % (len(EXPECTED) - len(failures), len(EXPECTED)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
