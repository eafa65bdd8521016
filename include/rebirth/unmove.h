#pragma once

#include <functional>
#include <vector>

#include "rebirth/move.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"
#include "rebirth/types.h"

namespace rebirth {

// A retraction: the last move, taken back. `move` is that move as the forward generator
// writes it (from, to, kind, promotion walk; under Circe rules also the rebirth square, under
// Mars Circe the square the capture started from); `uncaptured` is the walk of the
// opponent's unit it took (NO_WALK: it took nothing), put back on the capture square (the
// square behind `to` for en passant). Rebirth effects, undone by retract():
// - `unreborn`: the square the taken unit was reborn on (it leaves it), SQ_NONE when it was
//   not reborn (Circe family);
// - `capturer_now`: Anti-Circe: the capturer's rebirth square, where it stands now, when it
//   is not `move.to`;
// - `capturer_before`: the mover's unit as it stood before the move, when that is not the
//   unit now on `capturer_now` (or `move.to`) with the move's promotion undone: a pawn that
//   its Anti-Circe rebirth on its last rank promoted, or a capturer that is gone;
// - `capturer_lost`: Circe Assassin: the capturer is gone, removed because it stood on the
//   taken unit's rebirth square (`unreborn` == `move.to`);
// - `resurrected`: Circe Assassin: the unit the rebirth removed from `unreborn`.
// - `rook_from`: Anti-Mars Circe castling: the square the rook stood on before it was lifted
//   to its rebirth square (SQ_NONE: it castled from that corner).
// - `uncaptured_flags`: Frisch-auf Circe: the taken unit's attributes (PF_PROMOTED: a
//   promoted unit, reborn on the promotion square of the capture file); 0 otherwise.
// - `parrain_square`, `parrain_piece`: Circe Parrain / ContraParrain: the mover's unit that
//   the opponent's move before took on that square, waiting in the earlier position; the
//   move placed it on `parrain_rebirth` (where it stands now), or SQ_NONE: the square the
//   move's vector gave was off the board or held, and it was lost. Under these rules the
//   move's own taken unit is the one the position has waiting (Setup::parrain_piece).
struct UnMove {
    Move move;
    Walk uncaptured = NO_WALK;
    Square unreborn = SQ_NONE;
    Square capturer_now = SQ_NONE;
    Piece resurrected{};
    Piece capturer_before{};
    bool capturer_lost = false;
    Square rook_from = SQ_NONE;
    std::uint8_t uncaptured_flags = 0;
    Square parrain_square = SQ_NONE;
    Piece parrain_piece{};
    Square parrain_rebirth = SQ_NONE;
    friend bool operator==(const UnMove&, const UnMove&) = default;
};

// Whether generate_unmoves handles `rules` (null: orthodox chess): orthodox chess; the
// Circe rules where only the captured unit is reborn, at once (any square rule but Parrain,
// Take&Make and Diagram), on an empty square or in place of an occupant (Relaxed, Strict,
// Assassin); Anti-Circe (the capturer reborn: Calvet, Cheylan, Strict or Relaxed, the same
// square rules); Circe and Anti-Circe together (both units reborn, each half's square given
// by its rule); Mars Circe; Anti-Mars Circe; Frisch-auf Circe (the captured unit reborn,
// Relaxed or Strict), where the diagram's FrischAuf marks (PF_PROMOTED) are taken as the
// truth: a marked unit promoted, an unmarked one never did; Circe Parrain and ContraParrain
// (Relaxed), the unit the last move took waiting in the position (Setup::parrain_piece). Never with the walk adapters
// Clone and Chameleon or other effects (Volcanic, Parachute, Ultra, Atom, Kamikaze,
// Alsatian, Hydra). A diagram shows neither the units' game-array squares nor the walk a
// Clone or Chameleon unit had, which the refused ones need.
bool unmoves_supported(const RuleSet* rules);

// Circe Parrain / ContraParrain: moves the rules' LastCapture (the unit the diagram's last
// move took, waiting) into the diagram (Setup::parrain_piece), where generate_unmoves wants
// it: the rules then describe the diagram and every earlier position alike. Nothing without one.
void take_last_capture(Setup& diagram, RuleSet& rules);

// Every retraction of the side that did not move in `position` (the side to move is the
// other one) under `rules`: each earlier position loads (the opponent of the mover is not
// in check there, kings and pawns stand where they may) and the retracted move, played
// there by the forward generator, gives `position`'s board again (units compared by colour
// and walk, and under Frisch-auf Circe by the promoted mark). Candidates: the unit back along its walk (pawns from
// their own side, double steps from the second rank, promotions from the seventh, en passant after the opponent's
// double step, castling from the game-array squares), taking nothing or any unit but a king
// (a pawn not on the first or last rank; under Frisch-auf Circe a piece promoted or not, and
// only a marked unit promoted); under Circe that unit coming back from any square
// the opponent holds (Assassin: with the occupant it removed back there, or with the
// capturer it removed back home); under Anti-Circe the capturer coming back from its rebirth
// square; under Mars Circe captures (and castling) from any empty square; under Anti-Mars
// Circe non-captures from any empty square (a pawn also from its own square: its double step
// from its rebirth square may end where it stood) and castling of a king from any empty
// square with a rook from its corner or lifted there from any empty square.
// Under Circe Parrain the move took the unit `position` has waiting, or nothing (retract()
// gives the earlier position its own waiting unit). Orthodox units only. Throws
// std::invalid_argument for fairy units, for rules unmoves_supported refuses and for rules
// with a LastCapture (take_last_capture). Castling rights and en passant of the earlier position are
// claimed only as the retracted move needs them.
void generate_unmoves(const Setup& position, std::vector<UnMove>& out, const RuleSet* rules = nullptr);

// generate_unmoves one retraction at a time (possibly the same one twice): calls visit(u)
// for each until it returns true; returns whether it did (the remaining ones are not made).
bool for_each_unmove(const Setup& position, const RuleSet* rules, const std::function<bool(const UnMove&)>& visit);

// The position before u: u's unit back on its departure square (a pawn again after a
// promotion, king and rook home after castling, an Anti-Mars rook back where it was lifted
// from; from its rebirth square under Anti-Circe), the taken unit back from its rebirth
// square (if any) to the capture square, a unit an Assassin rebirth removed back in place,
// the mover to move; castling rights only for a retracted castling (the rook's corner unless
// the rook was lifted, and the king's square when it castled from its game-array square),
// the en passant square only for a retracted en passant capture; under Parrain the unit the
// move placed lifted off, and u's waiting unit (none when u has none) the earlier position's.
Setup retract(const Setup& position, const UnMove& u);

}  // namespace rebirth
