#pragma once

#include "rebirth/rules.h"
#include "rebirth/setup.h"

// The retraction closure: every position a history of a diagram can pass through, taken back
// move by move with no depth limit. A legal position other than the game array has a legal
// predecessor, so a legal diagram's history, read backwards, is a line of retractions whose
// positions are all legal and which ends on the game array. When the positions reachable by
// retraction from the diagram (generate_unmoves, the histories fits_history allows, castling
// rights kept along the line: retract_keeping_rights), less those the static analysis proves
// illegal, are finitely many and none is the game array, the diagram is illegal.
//
// Exact where generate_unmoves is (orthodox chess and the rules unmoves_supported accepts):
// positions are told apart by their units (colour, walk, promoted mark), side to move,
// castling rights, en passant square and the unit waiting for a Parrain rebirth. The static
// analysis is may_be_legal's at depth 0 (retro.h), in orthodox chess with the castling rights
// and en passant square the line gives (a king or rook keeping its right never moved).
//
// It settles locks that no depth limit does: janko.at's JR-D-103, where with a7-a6 as Black's
// last move the black king on e3 can only ever be taken back to d4 after a white knight's
// discovered check, Black's only other unit that moves is a knight screening the bishop on
// h6, and the positions taken back from there (219 of them) go round in circles.

namespace rebirth {

// Whether the retraction closure of `s` under `rules` (null: orthodox chess) is proved to
// miss the game array, keeping at most `max_positions` positions that pass the static
// analysis (beyond: false). True proves `s` illegal; false proves nothing.
bool closure_refutes(const Setup& s, long max_positions, const RuleSet* rules = nullptr);

}  // namespace rebirth
