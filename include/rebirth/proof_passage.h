#pragma once

#include <array>
#include <vector>

#include "rebirth/distance.h"
#include "rebirth/position.h"
#include "rebirth/proof_bound.h"
#include "rebirth/proof_captures.h"
#include "rebirth/types.h"

// Passage bound for proof games: the fewest moves of one unit to its target square when a
// few units around it (a group) must get past one another, which the per-unit distances of
// proof_bound.h count one at a time. The switchback of undetermined_must_switchback (Natch
// 3.3 tests): White's a-pawn takes the b-pawn on b7 and promotes on b8, and only then can
// Black's a8 rook, shut in by the pawn a7, go down the b-file, so the knight leaves b8 and
// comes back: 7 moves, not the 5 of the pawn's distance.
//
// The search follows the group's units only (relaxed): every other unit is left out, so it
// blocks nothing and a pawn of the group may take on any empty square (an unseen unit of the
// other side); the fixed units (fixed_units) are walls. Each unit of the group gets a fate
// first, a target square of its colour that it fills (a pawn as a pawn or promoted) or
// "taken", and the units of the group that are taken may be taken by an unseen unit at any
// time. The moves are made in any order (the sides' other units may move in between) and
// without checks. What is kept: each side's captures stay within the units the other side
// loses (the board's units less the target's; a capture by a unit of the group, or of a unit
// of the group by an unseen one, is one of them), and each side's moves stay within its
// budget: its other units fill the target squares the group leaves at least at their least
// assignment (plain distances, the fixed units as walls), so the units of the group make at
// most the budget (one more with a castling right where the king does not end on its square:
// castling moves two units) less that many moves, counting every move of a taken one and
// the moves beyond its distance of one that stays. An unseen unit a pawn of the group takes
// is one of the other side's units outside the group that it can lose (without it the others
// still fill their squares within the budget), lost, so its way to the capture square counts
// for its side (those taken are distinct units; the most one of them costs with what the
// others then need more counts too). An unseen unit that takes a member of the group goes to
// its square: if it stays on the board, its way through there to a target square raises its
// side's assignment (bounded by the assignment's dual solution), and such a unit is none of
// those taken; if it is lost later, its way there and the others' greater need count, and it
// may be one of those taken. A knight's count keeps the parity of its distance.
//
// Members that can never meet (their squares within their moves are apart) are searched
// apart and only their counts are added; per placement of the members the least counts are
// kept (none at most another everywhere). A real game, its other units left out, is one of these
// relaxed histories, so the least moves over them bound the unit's moves from below.
//
// Kings are never in the group; a rook of the group that may castle may go from its corner to
// the d- or f-file in one move when the squares between are free (its king left out).
//
// Sound in orthodox chess only, where proof_bound_applies holds.

namespace rebirth {

// The fewest moves the unit on `unit` makes in a game from pos in which it ends on `to`,
// each side c makes at most budget[c] more moves and the game ends on the target, over the
// relaxed histories of the units of `group` (unit's included; kings and fixed units
// dropped). At least the unit's distance to `to`; kFar when no such game
// exists (also when `to` is not a target square of the unit's colour and walk). At most the
// distance and `enough` (the search stops there). When more than `max_states` positions of
// one search are needed, the distance (no verdict). `fixed`: fixed_units(pos, target).
int passage_moves(const Position& pos, const Board& target, Bitboard fixed, std::array<int, COLOR_NB> budget,
                  Bitboard group, Square unit, Square to, int max_states = 20000, int enough = kFar);

// The floors (proof_captures.h) passage_moves finds where one unit must pass a target square: for each unit V
// (not a king nor fixed) whose square is not a target square of its walk and whose every move
// enters or crosses a target square X of a piece (X blocked, V has no move), each unit u of
// X's colour that may fill X (within its side's budget) with a group of u, V, the units next
// to X and the pawns with no target pawn square ahead on their file (which change file,
// promote or are taken: the captures both sides have count), at most 8 units. Only raises
// above the distance are listed (kFar: the unit never ends there); each search stops at `max_states` positions (no
// verdict) and at `enough` moves beyond the distance.
std::vector<UnitCostFloor> passage_raises(const Position& pos, const Board& target, Bitboard fixed,
                                          std::array<int, COLOR_NB> budget, int max_states, int enough);

}  // namespace rebirth
