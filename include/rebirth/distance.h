#pragma once

#include <array>
#include <cstdint>

#include "rebirth/bitboard.h"
#include "rebirth/types.h"

// Empty-board distances of the orthodox walks: lower bounds of the moves a unit needs on any
// board, for the search bounds of help play (goal_bound.h) and the proof-game deductions.
//
// Sound for orthodox chess: obstacles, the side to move and the rules of the game can only
// add moves. A pawn's moves are its single step, its double step (from its first two ranks,
// a superset of the rules), its diagonal steps (captures, en passant included) and, once on
// its last rank, the moves of a queen or a knight (the promotions with the fewest moves). A
// king's moves include castling's two-file step from e1 and e8 as one move. Not sound under
// conditions that move units without their own moves (Circe rebirths, Anti-Circe, Mars...).

namespace rebirth {

// No number of moves reaches it.
inline constexpr int kFar = 99;

// Fewest moves a unit of walk w (KING..PAWN) and colour c needs from `from` to `to` on an
// empty board (0 when from == to); kFar when it never gets there.
int empty_distance(Walk w, Color c, Square from, Square to);

// Fewest moves until a unit of walk w and colour c that stands on `from` attacks `target` on
// an empty board (0 when it already does); kFar when it never can.
int empty_attack_distance(Walk w, Color c, Square from, Square target);

// The 64 values of empty_distance(w, c, from, ·) and empty_attack_distance(w, c, from, ·),
// indexed by square; null for a walk other than KING..PAWN.
const std::uint8_t* empty_distances_from(Walk w, Color c, Square from);
const std::uint8_t* empty_attack_distances_from(Walk w, Color c, Square from);

// The squares a unit of walk w (KING..PAWN) and colour c on s attacks on an empty board, and
// the squares from which such a unit attacks s.
Bitboard empty_attacks(Walk w, Color c, Square s);
Bitboard empty_attackers(Walk w, Color c, Square s);

// The squares a unit of walk w (KING..PAWN) and colour c on s reaches with one move when the
// squares of `blocked` can be neither entered nor crossed, on an otherwise empty board: the
// moves the distances count (castling's two-file king step, a pawn's steps and diagonal steps).
Bitboard one_move_squares(Walk w, Color c, Square s, Bitboard blocked);

// The fewest moves, per square, for a unit of walk w and colour c on `from` to stand there
// with walk `as` on an empty board: a pawn as a pawn (never on its last rank), or as a queen,
// rook, bishop or knight promoted on the way (a promoted rook or bishop never needs fewer
// moves than a queen, nor attacks more; a bishop keeps its promotion square's colour); any
// other walk only as itself. Null for other pairs.
const std::uint8_t* empty_distances_as(Walk w, Color c, Square from, Walk as);

// As empty_distances_as, on a board whose `blocked` squares hold units that never move and
// are never captured (pawns that never leave their first square): they can be neither
// entered nor crossed. Null for the pairs empty_distances_as refuses, for a pawn as a
// promoted rook or bishop, and for a unit standing on a blocked square. The values stay valid while the same thread
// asks only with the same set of blocked squares (a cache per thread keeps between 1024 and
// 2048 sets, those asked last).
const std::uint8_t* blocked_distances_as(Bitboard blocked, Walk w, Color c, Square from, Walk as);
// A count that grows each time this thread's blocked_distances_as tables are dropped (every
// 1024 new sets): the rows it returned stay valid while this count is unchanged.
std::uint64_t blocked_distances_generation();
// The same with file cuts too: bit q of `cuts` forbids every move along the file between q
// and the square above it (or over both), in both directions, except the step across it of a
// pawn starting on the lower square (white) or the upper one (black): a pawn that must make
// exactly that step holds one of the two squares till the end (proof_bound.h, file_cuts).
// The bit does not say which side's pawn makes the cut, so a pawn of either side starting
// there may step across: a weaker bound, never a wrong one.
const std::uint8_t* blocked_distances_as(Bitboard blocked, Bitboard cuts, Walk w, Color c, Square from, Walk as);

// The squares whose value in a row of 64 distances (as the functions above return) is at
// most n.
Bitboard squares_within(const std::uint8_t* distances, int n);

// Fewest moves, from each walk (KING..PAWN) and square, for a unit of colour c first of walk
// `origin` (a pawn may promote on the way) to stand on `target` in one of the walks of
// `accepted` (bit 1 << walk), while every unit of the other side stands still: those on
// `kept` are never taken, so neither entered nor crossed; those on `takeable` may be taken
// and are the only units taken (a pawn steps diagonally only onto their squares, and never
// en passant). The unit's own side is no obstacle (its units may move away first). Castling
// counts as the king's two-file step. Sound for the side that moves in orthodox series play
// before the other side's only move (ser-h#, ser-h=), with `kept` the other side's units
// that must still stand at the end; kFar where never.
struct StillDistances {
    std::array<std::uint8_t, 6 * 64> moves;  // [walk - KING][square]
    int from(Walk w, Square s) const { return w >= KING && w <= PAWN ? moves[(w - KING) * 64 + s] : kFar; }
};
StillDistances still_distances(Bitboard kept, Bitboard takeable, Color c, Walk origin, Square target,
                               unsigned accepted);

}  // namespace rebirth
