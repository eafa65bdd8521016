#!/usr/bin/env python3
"""Random small problems under Circe-family conditions, for differential runs against Popeye.

    python3 scripts/popeye_random.py SEED COUNT OUT.inp [--long] [--side-walk] [--condition WORDS]
    POPEYE=/path/to/py python3 scripts/popeye_diff.py WORKDIR OUT.inp

Each problem: the two kings and 2 to 7 units (4 to 9 with --long) on random squares (pawns
off their first and last ranks), one condition of Popeye's words from CONDITIONS, one
stipulation from STIPULATIONS (longer ones with --long), each option of OPTIONS with
probability 0.08, and one in five problems one or two twins that set another stipulation.
With --side-walk the condition comes from SIDE_WALK_CONDITIONS instead (Turncoats and April:
the reborn unit's side and the walks that are reborn); with --condition WORDS every problem
has that condition (e.g. --condition "Circe CaptureSquare WaitCapture").
Positions Popeye and rebirth refuse (a king in check with the other side to move, kings side
by side) are kept: both must refuse them. Nothing here runs in the test suite; what a run
finds goes into data/popeye-oracle/ with Popeye's output (its README names the runs).
"""
import random
import sys

CONDITIONS = [
    "Circe", "AntiCirce", "Circe Parrain", "MarsCirce", "AntiMarsCirce",
    "Circe Assassin", "Circe RexInclusive", "Circe Mirror", "AntiCirce Cheylan", "Circe ContraParrain",
    "Circe Symmetry", "HorizontalSymmetryCirce", "Circe Antipodes", "PWC", "Circe Equipollents",
    "Circe Couscous", "SuperCirce", "Circe Cage", "Circe Take&Make", "Circe Diagram",
    "Circe File", "Circe Clone", "Circe Chameleon", "Circe Frischauf", "Circe Diametral",
    "Circe VerticalMirror", "Circe Rank", "AntiCirce Couscous", "Circe Volcanic", "Circe Parachute",
    "Circe Strict", "Circe Assassin RexInclusive", "MarsCirce RexInclusive", "Circe Mirror Assassin", "AntiSuperCirce",
    "AntiCirce Volcanic", "Circe Turncoats", "Circe Parachute", "AntiCirce Cheylan Couscous", "AntiCirce Mirror",
    "Circe Clone RexInclusive", "Circe Equipollents RexInclusive", "AntiMarsCirce RexInclusive", "Circe PWC RexInclusive",
    "AntiCirce Symmetry", "AntiCirce Diagram", "AntiCirce Antipodes", "Circe Chameleon RexInclusive", "Circe Assassin Mirror",
    "Circe Frischauf RexInclusive",
]
SIDE_WALK_CONDITIONS = [
    "Circe Turncoats", "CirceDoubleAgents", "AntiCirce Turncoats RexExclusive", "Circe Equipollents Turncoats",
    "Circe Turncoats Assassin", "Circe Super Turncoats", "Circe PWC Turncoats", "Circe Symmetry Turncoats",
    "Circe Clone Turncoats", "Circe Chameleon Turncoats", "Circe Strict Turncoats", "AntiCirce Mirror Turncoats RexExclusive",
    "Circe April S B", "Circe April P", "AprilChess R Q", "AntiCirce April B S", "Circe April Q R RexInclusive",
    "Circe Mirror April P S", "Circe Equipollents April P", "AntiCirce Super April S", "Circe Assassin April R",
    "Circe Turncoats April B R",
]
STIPULATIONS = ["#1", "#2", "h#1.5", "h#2", "h#2.5", "s#1", "s#2", "=1", "h=2", "ser-h#2", "ser-#2", "ser-h#3",
                "hs#1.5", "r#1", "hs#1", "hs#2", "hr#1", "hr#2", "r#2", "s=1", "ser-s#2", "h#1", "dia2", "ser-h=2"]
LONG_STIPULATIONS = ["#2", "#3", "s#2", "s#3", "r#2", "h#3", "h#3.5", "ser-h#4", "ser-#3", "ser-s#3", "hs#2.5",
                     "hr#2", "=2", "h=3"]
OPTIONS = ["SetPlay", "Try", "Variation", "Threat 1", "Threat 2", "Defence 2", "WhiteToPlay", "Quodlibet",
           "PostKeyPlay", "NoThreat", "MaxFlightsquares 1", "HalfDuplex", "Duplex", "MaxSolutions 2",
           "NoShortVariations"]


def problem(rng, long, conditions=CONDITIONS):
    used, white, black = set(), [], []

    def put(side, unit):
        while True:
            square = "abcdefgh"[rng.randrange(8)] + str(rng.randrange(1, 9))
            if square in used or (unit == "P" and square[1] in "18"):
                continue
            used.add(square)
            side.append(unit + square)
            return square

    wk, bk = put(white, "K"), put(black, "K")
    if abs(ord(wk[0]) - ord(bk[0])) <= 1 and abs(int(wk[1]) - int(bk[1])) <= 1:
        return None
    for _ in range(rng.randint(4, 9) if long else rng.randint(2, 7)):
        unit = rng.choice("QRRBBSSPPPP")
        put(white if rng.random() < 0.5 else black, unit)
    stipulations = LONG_STIPULATIONS if long else STIPULATIONS
    text = f"Condition {rng.choice(conditions)}\nPieces\nWhite {' '.join(white)}\nBlack {' '.join(black)}\n"
    text += f"Stipulation {rng.choice(stipulations)}\n"
    options = [o for o in OPTIONS if rng.random() < 0.08]
    if options:
        text += "Option " + " ".join(options) + "\n"
    if rng.random() < 0.2:
        text += f"Twin Stipulation {rng.choice(stipulations)}\n"
        if rng.random() < 0.5:
            text += f"Twin Stipulation {rng.choice(stipulations)}\n"
    return text


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    seed, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    problems = []
    args = sys.argv[4:]
    conditions = SIDE_WALK_CONDITIONS if "--side-walk" in args else CONDITIONS
    if "--condition" in args:
        conditions = [args[args.index("--condition") + 1]]
    while len(problems) < count:
        p = problem(rng, "--long" in args, conditions)
        if p:
            problems.append(p)
    with open(out, "w") as f:
        f.write("BeginProblem\n" + "NextProblem\n".join(problems) + "EndProblem\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
