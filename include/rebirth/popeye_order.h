#pragma once

#include "rebirth/move.h"
#include "rebirth/position.h"

namespace rebirth {

// The legal moves of `pos` in the order Popeye tries and prints them: units from a1 to h8,
// each unit's moves in reverse generation order (queen lines, then knight leaps, farther
// squares first), promotions Q S R B. Solutions are printed in this order.
void popeye_ordered_moves(const Position& pos, MoveList& list);

// The moves of `pos` that Popeye generates before testing them for self-check (the legal ones
// and those leaving the mover's king attacked), in the order of popeye_ordered_moves: what
// Option MoveNumbers counts.
void popeye_ordered_pseudo_moves(const Position& pos, MoveList& list);

// Popeye's order for a play's final attacking move when its goal is mate or check (direct
// play's last move, help and series play's goal move) under the rules where Popeye then uses
// its orthodox mating-move generator (optimisations/orthodox_mating_moves): units from h8 down
// to a1, each unit's moves as above except a pawn's: captures to the right, to the left, then
// the double step, the single step and en passant last.
void popeye_ordered_final_moves(const Position& pos, MoveList& list);

// Sorts legal moves of `pos` (any subset of them) into the order of popeye_ordered_final_moves
// (`final_move`) or popeye_ordered_moves: sorting a subset gives the order those moves have in
// the full ordered list.
void popeye_sort(const Position& pos, MoveList& list, bool final_move);

// Whether Popeye generates the final mating (or checking) move of `pos` with its orthodox
// mating-move generator: no fairy walk, and orthodox rules or Circe with the captured unit
// reborn, kings excluded, neither Volcanic, Parachute, Assassin nor Parrain (its twin.c
// list; BEISPIEL/assass.inp for Assassin).
bool popeye_final_move_generator(const Position& pos);

}  // namespace rebirth
