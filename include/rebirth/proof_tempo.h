#pragma once

#include <array>

#include "rebirth/position.h"
#include "rebirth/proof_bound.h"

// Tempo (parity) bound for proof games: in a proof game each side makes exactly its number
// of moves, so the moves its units still make must add up to that number exactly, not only
// to at most it. A knight's moves change its square's colour each time, so their number has
// the parity of its start and end colours; a pawn's number is its rank progress less one per
// double step; a king, queen, rook or bishop can change the parity of its count only along
// an odd closed walk, which takes room (Ke8-f7-e6-d5-d6-e6-f7-e8 wastes seven moves, the
// shortest odd walk home it has in BEISPIEL/proof.inp's dia8.5 by Gruber).
//
// Applies to side c when no unit of c is captured or promotes from now on (c has as many
// units and as many pawns as in the target, so each unit ends on a target square of its own
// walk) and c cannot castle (no right, or a fixed unit stands between king and rook).
// Distances are taken on the board of fixed_units() alone (the other units may move away),
// which only lowers them: the bound never refuses a game that exists.
//
// Sound in orthodox chess only, where proof_bound_applies holds.

namespace rebirth {

// Whether side c's units can make exactly `moves_left` more moves and stand on their target
// squares: false only when the fewest moves with the parity of `moves_left` exceed it. True
// (no verdict) where the bound does not apply.
bool proof_tempo_possible(const Position& pos, const Board& target, Color c, int moves_left);
// The same with fixed_units(pos, target) given.
bool proof_tempo_possible(const Position& pos, const Board& target, Color c, int moves_left, Bitboard fixed);
// The same with c's target squares given by walk (wanted[walk]) instead of the target board.
bool proof_tempo_possible(const Position& pos, const std::array<Bitboard, WALK_NB>& wanted, Color c, int moves_left,
                          Bitboard fixed);

// The fewest moves with which a unit of walk w (KING, QUEEN, ROOK, BISHOP or KNIGHT) goes
// from `from` to each square, by parity of the count: [0][s] even, [1][s] odd; kFar where
// never. `walls` are squares it may neither enter nor cross. For one thread the values stay
// valid while it asks with at most 256 different wall sets.
const std::array<std::array<std::uint8_t, SQUARE_NB>, 2>& parity_distances(Bitboard walls, Walk w, Square from);

}  // namespace rebirth
