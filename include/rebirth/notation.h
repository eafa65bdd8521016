#pragma once

#include <string>

#include "rebirth/move.h"
#include "rebirth/position.h"

namespace rebirth {

// Popeye's English long algebraic notation of a legal move in `pos` (before it is played):
// "Sb1-c3", "e5*d6 ep.", "e7-e8=Q", "0-0", "0-0-0". With `with_check` a move that gives check
// (mate included) gets " +" appended, as in Popeye's move lists.
std::string move_to_popeye(const Position& pos, const Move& m, bool with_check = false,
                           Language lang = Language::English);

// Standard algebraic notation (PGN's SAN) of a legal move in `pos` (before it is played):
// "Nf3", "exd5", "Rae1", "e8=Q+", "O-O", "Qxf7#"; a unit is named by its piece letter and, when
// another unit of its walk and colour may go to the same square, by its departure file, else
// rank, else square. Captures are moves onto an occupied square (en passant too). Under
// conditions only the move itself is written (rebirths are the caller's comments); a unit of
// a fairy walk, which SAN has no letter for, gets Popeye's notation.
std::string move_to_san(const Position& pos, const Move& m);

}  // namespace rebirth
