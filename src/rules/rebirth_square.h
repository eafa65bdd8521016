#pragma once

#include "rebirth/rules.h"
#include "rebirth/types.h"

namespace rebirth {

// Home square of a unit of colour c and walk w for a capture on t (RULES.md section 3):
// pawns the 2nd rank of t's file, Q d1/d8, K e1/e8, R B S the home square of t's square
// colour, fairy walks (and promoted units under Frisch-auf) the promotion square of t's file.
inline Square classic_rebirth_square(Walk w, Color c, Square t, bool as_promoted = false) {
    const int home_rank = c == WHITE ? 0 : 7;
    if (as_promoted || w > PAWN) return make_square(file_of(t), c == WHITE ? 7 : 0);
    const bool a_side = is_dark(t) == (c == WHITE);  // t has the colour of c's a-file corner (a1, a8)
    switch (w) {
        case PAWN:
            return make_square(file_of(t), c == WHITE ? 1 : 6);
        case QUEEN:
            return make_square(3, home_rank);
        case KING:
            return make_square(4, home_rank);
        case ROOK:
            return make_square(a_side ? 0 : 7, home_rank);
        case BISHOP:
            return make_square(a_side ? 2 : 5, home_rank);
        case KNIGHT:
            return make_square(a_side ? 6 : 1, home_rank);
        default:
            return SQ_NONE;
    }
}

// s mirrored across the d/e line (the vertical-mirror adapter).
inline Square mirrored_file(Square s) { return make_square(7 - file_of(s), rank_of(s)); }

// Parrain and ContraParrain: the rebirth waits for the next move.
inline bool parrain_like(const RuleSet& r) {
    return r.square == SquareRule::Parrain || r.square == SquareRule::ContraParrain;
}
// A taken unit waits for its rebirth, as part of the position (Position::parrain_piece):
// until the next move (Parrain) or the next capture (WaitCapture). The shortcuts that
// assume a capture reborns the unit it takes at once do not hold.
inline bool delayed_rebirth(const RuleSet& r) { return parrain_like(r) || r.wait_capture; }
// Whether a pawn reborn on its last rank promotes under this square rule or April (Popeye's
// is_promotion_possible); otherwise it stays an immobile pawn there.
inline bool rebirth_promotes(const RuleSet& r) {
    if (r.april) return true;  // Popeye sets is_promotion_possible with April
    switch (r.square) {
        case SquareRule::Couscous:
        case SquareRule::Equipollents:
        case SquareRule::Parrain:
        case SquareRule::ContraParrain:
        case SquareRule::Cage:
        case SquareRule::Symmetry:
        case SquareRule::VerticalSymmetry:
        case SquareRule::PWC:
        case SquareRule::Antipodes:
        case SquareRule::Super:
        case SquareRule::TakeMake:
            return true;
        default:
            return false;
    }
}
// Whether s is on the last rank for colour c (a pawn reborn there promotes).
inline bool last_rank(Color c, Square s) { return rank_of(s) == (c == WHITE ? 7 : 0); }
inline bool first_rank(Color c, Square s) { return rank_of(s) == (c == WHITE ? 0 : 7); }

// What a capture looks like to a rebirth-square function.
struct CaptureFacts {
    Piece unit;                           // the unit to be reborn (walk before any adapter)
    Square capture = SQ_NONE;             // where it was captured
    Square from = SQ_NONE;                // the capturer's departure square
    Square to = SQ_NONE;                  // the capturer's arrival square
    Piece capturer;                       // the capturing unit (after promotion)
    Walk capturer_walk_before = NO_WALK;  // its walk before the move (Clone copies this one)
    Square origin = SQ_NONE;              // the unit's diagram square (Diagram Circe)
};

// The walk the reborn unit has (Clone, Chameleon adapters).
Walk reborn_walk(const RuleSet& rules, const CaptureFacts& f);

// The rebirth square of `f.unit` (with walk `walk`) under the single-square rules (every
// SquareRule except Super, Cage, TakeMake, Parrain, ContraParrain), mirror adapters
// included; SQ_NONE when the rule gives no square (off the board, no diagram square).
Square rebirth_square(const RuleSet& rules, const CaptureFacts& f, Walk walk);

}  // namespace rebirth
