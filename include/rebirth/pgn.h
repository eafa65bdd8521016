#pragma once

#include <string>
#include <vector>

#include "rebirth/move.h"
#include "rebirth/position.h"

namespace rebirth {

// One PGN tag pair: [Name "value"].
struct PgnTag {
    std::string name;
    std::string value;
};

// One game in PGN export format (PGN standard, section 8): the tags in the order given (the
// caller puts the Seven Tag Roster first), a blank line, the movetext and a blank line.
// The movetext is `moves` played from `start` in SAN (move_to_san), numbered from 1 with
// "1..." when Black moves first; a move with visible rule effects (rebirths, Anti-Circe
// transfers, Assassin removals) or a Mars/Anti-Mars departure from a rebirth square is
// followed by its Popeye notation as a comment ("Qxd5 {Qc4*d5[+bQd8]}"), since SAN cannot
// say them. Ends with `result`; lines hold at most 79 characters; quotes and backslashes
// in tag values are escaped. A null move is a pass (series play), written "--". Throws
// std::invalid_argument when a move is not legal where it is played.
std::string pgn_game(const std::vector<PgnTag>& tags, const Position& start, const std::vector<Move>& moves,
                     const std::string& result = "*");

}  // namespace rebirth
