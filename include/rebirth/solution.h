#pragma once

#include <vector>

#include "rebirth/move.h"
#include "rebirth/types.h"

// Solutions as data, as the solvers return them: the renderers (Popeye's text, PGN, JSON,
// HTML) and `rebirth verify` work from these, not from text.

namespace rebirth {

// One line of play from the position its play starts from: a proof game (from the game array
// or position a), a solution of help or series play (from the diagram), or the key of battle
// play (its one move).
struct PlayLine {
    int twin = 0;             // index of the twin (0 = a), or of the problem itself without twins)
    int play = 0;             // the play (phase) within the twin, in output order: set play, actual
                              // play, the halves of a duplex (proof games: 0, or 1 for Duplex's other)
    Color first = WHITE;      // the side that plays moves[0]
    std::vector<Move> moves;  // a null move: the side to move passes (the other side of series play)
    bool set_play = false;    // a line of set play (Option SetPlay), not a solution
    friend bool operator==(const PlayLine&, const PlayLine&) = default;
};

}  // namespace rebirth
