#pragma once

#include <vector>

#include "rebirth/move.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"
#include "rebirth/types.h"

namespace rebirth {

// A retraction: the last move, taken back. `move` is that move as the forward generator
// writes it (from, to, kind, promotion walk; under Circe rules also the rebirth square);
// `uncaptured` is the walk of the opponent's unit it took (NO_WALK: it took nothing), put
// back on the capture square (the square behind `to` for en passant); under Circe rules
// `unreborn` is the square the taken unit was reborn on (it leaves it), or SQ_NONE when it
// was not reborn.
struct UnMove {
    Move move;
    Walk uncaptured = NO_WALK;
    Square unreborn = SQ_NONE;
    friend bool operator==(const UnMove&, const UnMove&) = default;
};

// Whether generate_unmoves handles `rules` (null: orthodox chess): orthodox chess and the
// Circe rules where only the captured unit is reborn, at once, on an empty square (any
// square rule but Parrain, Take&Make and Diagram; Relaxed or Strict occupied squares; the
// walk kept: no Clone, Chameleon or Frischauf; no Mars, Anti-Mars, Assassin, Ultra,
// Volcanic, Parachute, Atom, Kamikaze, Alsatian, Hydra). A diagram shows neither the
// units' game-array squares nor which units promoted, which the refused ones need.
bool unmoves_supported(const RuleSet* rules);

// Every retraction of the side that did not move in `position` (the side to move is the
// other one) under `rules`: each earlier position loads (the opponent of the mover is not
// in check there, kings and pawns stand where they may) and the retracted move, played
// there by the forward generator, gives `position`'s board again (units compared by colour
// and walk). Candidates: the unit back along its walk (pawns from their own side, double
// steps from the second rank, promotions from the seventh, en passant after the opponent's
// double step, castling from the game-array squares), taking nothing or any unit but a king
// (a pawn not on the first or last rank), under Circe that unit coming back from any square
// the opponent holds. Orthodox units only. Throws std::invalid_argument for fairy units
// and for rules unmoves_supported refuses. Castling rights and en passant of the earlier
// position are claimed only as the retracted move needs them.
void generate_unmoves(const Setup& position, std::vector<UnMove>& out, const RuleSet* rules = nullptr);

// The position before u: u's unit back on its departure square (a pawn again after a
// promotion, king and rook home after castling), the taken unit back from its rebirth
// square (if any) to the capture square, the mover to move; castling rights only for a
// retracted castling, the en passant square only for a retracted en passant capture.
Setup retract(const Setup& position, const UnMove& u);

}  // namespace rebirth
